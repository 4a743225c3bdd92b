// Package control is the lifecycle of worlds on the control plane: health,
// worlds, the clock, the configuration, reset, a world's API keys, the
// export and import of a whole world, and the list of e-mails its outbox
// holds. It builds on the request pipeline (api) and on scenarioworld for the
// configuration rules and the scenarios a world starts from; only the
// facade imports it.
package control
