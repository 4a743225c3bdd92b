package apitest

import "time"

// Fixture identities of the default world (fixtures/world.json).
const (
	OwnerKey     = "0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c"
	TeammateKey  = "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	OutsiderKey  = "015dd024c558991375ddaaba75d97325af798a76720da2e21864f705e7153115"
	OwnerID      = "4dc1d0601aba5f470c97af030a257f883daf663d"
	TeammateID   = "6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0"
	OutsiderID   = "9bebb60aeacd74239d65616bbe584509cb5ea24a"
	TeammateMail = "teammate@sandbox.example"
	OutsiderMail = "outsider@elsewhere.example"
	TeamID       = "d25187dc137f35c88bc80ec8c3ffbdb17b5eb873"
	// ClientID is the client_id of the fixture API app.
	ClientID = "7d1043473d55bfa90e8530d35801d4e3"
)

// Default delays of a world's jobs.
const (
	// TemplatePrepDelay is the default TemplatePreparationDelay.
	TemplatePrepDelay = 10 * time.Second
	// SendProcessDelay is the default SendProcessingDelay.
	SendProcessDelay = 2 * time.Second
)

// AppSecret is the client_secret of the fixture API app.
const AppSecret = "5e4b2b4c9d4f4a0e8f7c6b5a49382716"
