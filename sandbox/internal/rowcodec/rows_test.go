package rowcodec

// The rows the tests encode: the shapes of the sandbox's stored rows (the
// signature request, its access row, a sign URL), copied without tags or
// comments so that the codec is tested on the shapes it keeps without
// importing the package that declares them. state's own test
// (TestRowTypesRoundTrip) checks the real types.

type Attachment struct {
	ID           string
	SignerIndex  int
	Name         string
	Instructions string
	Required     bool
	UploadedAt   *int64
}

type AuditEntry struct {
	Time   int64
	Actor  string
	Action string
	Detail string
}

type CustomField struct {
	Name     string
	Type     string
	Value    string
	Required bool
	APIID    string
	Editor   string
}

type Document struct {
	Name         string
	ContentType  string
	SourceURL    string
	BlobID       string
	PDFBlobID    string
	Upload       uint64
	Pages        []Page
	Error        string
	TextTags     []DocumentTextTag
	TextTagError string
	PDFFields    []DocumentPDFField
}

type DocumentPDFField struct {
	Name     string
	Kind     string
	Page     int
	X        int
	Y        int
	Width    int
	Height   int
	Required bool
	ReadOnly bool
	Checked  bool
	Options  []string
	Value    string
}

type DocumentTextTag struct {
	Text   string
	Page   int
	X      int
	Y      int
	Width  int
	Height int
}

type Email struct {
	ID                 string
	Seq                uint64
	Kind               string
	To                 string
	Name               string
	Subject            string
	Message            string
	SignatureRequestID string
	SignatureID        string
	TemplateID         string
	Link               string
	SentAt             int64
	Bounced            bool
	FromName           string
	ReplyTo            string
	Title              string
	Actor              string
	Note               string
	Brand              *EmailBrand
	Read               bool
}

type EmailBrand struct {
	ClientID               string
	AppName                string
	HeaderBackgroundColor  string
	PageBackgroundColor    string
	TextColor2             string
	LinkColor              string
	PrimaryButtonColor     string
	PrimaryButtonTextColor string
	LogoURL                string
}

type FieldGroup struct {
	GroupID     string
	GroupLabel  string
	Requirement string
}

type FieldKeys struct {
	Placeholder                      string
	AutoFillType                     string
	LinkID                           string
	Masked                           bool
	ValidationType                   string
	ValidationCustomRegex            string
	ValidationCustomRegexFormatLabel string
	Content                          string
	ContentURL                       string
	Options                          []string
	IsChecked                        bool
	FontFamily                       string
	FontSize                         int
}

type FieldRule struct {
	ID              string
	TriggerOperator string
	Triggers        []RuleTrigger
	Actions         []RuleAction
}

type FileSet struct {
	ID         string
	Version    int
	Ready      bool
	Gone       bool
	Recipe     Recipe
	PDFSeq     uint64
	Name       string
	PreparedAt int64
	Rare       *FileSetRare
}

type FileSetRare struct {
	PDFBlobID string
	ZIPBlobID string
	Pages     int
	Failure   string
}

type FormField struct {
	APIID         string
	Name          string
	Type          string
	DocumentIndex int
	Page          *int
	X             int
	Y             int
	Width         int
	Height        int
	Required      bool
	Signer        string
	Role          string
	Group         string
	FieldKeys
}

type LinkSecret struct {
	SignatureID string
	Secret      string
}

type Page struct {
	Width  float64
	Height float64
}

type Recipe []byte

type ResponseValue struct {
	APIID       string
	SignatureID string
	Name        string
	Type        string
	Required    bool
	Value       any
	IsSigned    *bool
}

type RuleAction struct {
	FieldID string
	GroupID string
	Hidden  bool
	Type    string
}

type RuleTrigger struct {
	ID       string
	Operator string
	Value    string
	Values   []string
}

type SignURL struct {
	Token       string
	SignatureID string
	RequestID   string
	Embedded    bool
	ExpiresAt   int64
}

type Signature struct {
	ID                 string
	Slot               int
	Group              string
	GroupGUID          string
	Email              string
	Name               string
	Role               string
	Order              *int
	Status             string
	SignedAt           *int64
	LastViewedAt       *int64
	LastRemindedAt     *int64
	PIN                string
	SMSPhone           string
	SMSPhoneType       string
	DeclineReason      string
	ReassignedBy       string
	ReassignmentReason string
	ReassignedFrom     string
	Error              string
	Notified           bool
}

type SignatureRequest struct {
	ID                     string
	Seq                    uint64
	Generation             int
	RequesterAccountID     string
	RequesterEmail         string
	RequesterName          string
	ClientID               string
	Embedded               bool
	TestMode               bool
	BaseURL                string
	WorldURL               string
	Title                  string
	OriginalTitle          string
	Subject                string
	Message                string
	Metadata               map[string]any
	CreatedAt              int64
	ExpiresAt              *int64
	CCEmails               []string
	SigningRedirectURL     string
	TemplateIDs            []string
	BulkSendJobID          string
	AllowDecline           bool
	AllowReassign          bool
	HideTextTags           bool
	UseTextTags            bool
	IsEID                  bool
	PopulateAutoFillFields bool
	SigningOptions         *SigningOptions
	DateFormat             string
	FormView               string
	AppendSignaturePage    bool
	Ordered                bool
	Hold                   bool
	CustomFields           []CustomField
	Attachments            []Attachment
	Documents              []Document
	FormFields             []FormField
	FieldGroups            []FieldGroup
	FieldRules             []FieldRule
	Signatures             []Signature
	ResponseData           []ResponseValue
	Phase                  string
	Error                  string
	CancelPending          bool
	CanceledAt             int64
	CompletedAt            int64
	RemovedFor             []string
	Audit                  []AuditEntry
	AwaitsConfirmation     bool
	LinkSecrets            []LinkSecret
	Files                  *FileSet
}

type SignatureRequestAccess struct {
	AccountID  string
	RequestID  string
	RequestSeq uint64
	Ordinal    uint64
}

type SigningOptions struct {
	DefaultType string
	Draw        bool
	Phone       bool
	Type        bool
	Upload      bool
}

const (
	PhaseSent   = "sent"
	SigAwaiting = "awaiting_signature"
)
