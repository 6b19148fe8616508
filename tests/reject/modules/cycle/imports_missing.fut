-- Imported by missing_nested.fut: imports a file that does not exist.

import "gone"
