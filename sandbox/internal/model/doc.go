// Package model declares the rows a world stores: signature requests,
// templates, accounts, API apps, teams, faxes, e-mails, events, deliveries,
// jobs and the rest, with the small methods that read them and the values
// their fields take (phases, signature states, ...). It holds no storage:
// package state keeps the tables, their indexes and accessors, and resource
// packages import model to name a row.
package model
