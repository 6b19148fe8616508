-- Function parameters must carry a type annotation.
-- ==
-- error: syntax_param_annotation\.fut:4:10: error: parameter 'x' needs a type annotation
def main x = x + 1
