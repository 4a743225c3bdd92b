package template

// intPtr is a pointer to a copy of v, for the optional ints of the API's
// shapes.
func intPtr(v int) *int { return &v }
