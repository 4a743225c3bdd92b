// Package scenarioworld is scenarios at work in a world: loading a scenario
// document (its configuration, seeded accounts, apps, templates and
// signature requests in their states, its rules), the rules' effects on
// API calls, processing and callback deliveries, the jobs that carry out
// signer effects later, and /_sandbox/scenarios. It lives above the
// resource packages because seeding drives their real code paths; the
// control plane and the facade build on it, and no resource imports it.
package scenarioworld
