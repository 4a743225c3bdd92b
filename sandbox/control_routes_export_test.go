package sandbox

// ControlRouteForTest is one registered control route, for black-box tests
// that must cover every control call.
type ControlRouteForTest struct {
	Method, Path string
	Public       bool
}

// ControlRoutesForTest lists the registered control routes in order.
func ControlRoutesForTest() []ControlRouteForTest {
	out := make([]ControlRouteForTest, 0, len(controlRoutes))
	for _, cr := range controlRoutes {
		out = append(out, ControlRouteForTest{Method: cr.method, Path: cr.path, Public: cr.public})
	}
	return out
}
