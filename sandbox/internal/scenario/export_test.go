package scenario

// SetPageLimit makes the runner read logs n entries per page until the
// returned function restores the default.
func SetPageLimit(n int) (restore func()) {
	old := pageLimit
	pageLimit = n
	return func() { pageLimit = old }
}
