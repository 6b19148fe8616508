-- No test block: `kerb test` skips this file (and says so with -v).
def main (x: i32) : i32 = x
