package sandbox

// strPtr returns a pointer to v, or nil for "" (fields the official schema
// shows as null when empty).
func strPtr(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}
