package sandbox

// ScenarioHooksInstalled puts the scenario engine's hooks back. Some
// subsystem tests replace a hook with a fake and then set it to nil, which
// in one test binary would switch the scenario rules off for every later
// test; the scenario tests call this first.
func ScenarioHooksInstalled() {
	templateFailureHook = scenarioTemplateFailure
	sigreqProcessFault = scenarioProcessFault
	callbackFault = scenarioCallbackFault
}
