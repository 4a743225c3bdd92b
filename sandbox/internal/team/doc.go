// Package team is the teams of a world: get, create, update and delete,
// members and their roles, invitations and their acceptance, sub-teams,
// the ownership transfer of a removed member's objects (through the
// registry's transfer hooks), and the team object view in the catalog.
package team
