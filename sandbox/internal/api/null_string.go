package api

// NullString returns a pointer to v, or nil for "" (fields the official schema
// shows as null when empty).
func NullString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}
