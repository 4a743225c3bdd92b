package sigreq

import "strconv"

// itoa spells an index or count in a message or an error_path.
func itoa(i int) string { return strconv.Itoa(i) }
