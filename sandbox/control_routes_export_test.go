package sandbox

// ControlRouteForTest is one registered control route, for black-box tests
// that must cover every control call.
type ControlRouteForTest struct {
	Method, Path string
	Public       bool
}

// ControlRoutesForTest lists the control routes every sandbox registers,
// in order.
func ControlRoutesForTest() []ControlRouteForTest {
	routes := productRegistry().ControlRoutes
	out := make([]ControlRouteForTest, 0, len(routes))
	for _, cr := range routes {
		out = append(out, ControlRouteForTest{Method: cr.Method, Path: cr.Path, Public: cr.Public})
	}
	return out
}
