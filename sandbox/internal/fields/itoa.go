package fields

import "strconv"

// itoa is strconv.Itoa, short because error paths are built from indexes
// everywhere (form_fields_per_document[3][page]).
func itoa(i int) string { return strconv.Itoa(i) }
