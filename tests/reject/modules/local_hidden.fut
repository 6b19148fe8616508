-- A local definition of a module is not one of its names.
-- ==
-- error: local_hidden\.fut:8:21: error: Unknown name 'M.secret'
module M = {
  local def secret = 1i32
  def public = secret
}
def main (z: i32) = M.secret + z
