package state

import (
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

const (
	// TableConfig holds the single Config row of a world.
	TableConfig = "config"
	configRowID = "config"
)

// Config is a world's tunable behaviour: the delays of asynchronous work, URL
// lifetimes, limits and rate limiting. It is stored in the world so that it is
// exported, imported and reset with everything else. The defaults are
// documented in docs/fidelity.md and set by DefaultConfig.
type Config struct {
	ID string `json:"id"`

	// SendProcessingDelay is the time between a send and the request being
	// processed (signature_request_sent or file_error).
	SendProcessingDelay Duration `json:"send_processing_delay"`
	// FilePreparationDelay is the time after creation, each signature and
	// completion until downloads stop answering 409.
	FilePreparationDelay Duration `json:"file_preparation_delay"`
	// TemplatePreparationDelay is the time until template_created.
	TemplatePreparationDelay Duration `json:"template_preparation_delay"`
	// CancelDelay is the time a queued cancelation takes to complete.
	CancelDelay Duration `json:"cancel_delay"`
	// ReminderInterval is the minimum spacing of reminders to one signer.
	ReminderInterval Duration `json:"reminder_interval"`

	SignURLTTL    Duration `json:"sign_url_ttl"`
	EditURLTTL    Duration `json:"edit_url_ttl"`
	ClaimURLTTL   Duration `json:"claim_url_ttl"`
	FileURLTTL    Duration `json:"file_url_ttl"`
	OAuthTokenTTL Duration `json:"oauth_token_ttl"`

	// MaxFileBytes caps one uploaded or fetched file; MaxWorldBytes caps all
	// stored file bytes of the world.
	MaxFileBytes  int64 `json:"max_file_bytes"`
	MaxWorldBytes int64 `json:"max_world_bytes"`
	// FetchFileURLs makes the sandbox download file_urls; when false a
	// generated placeholder document stands in (offline runs).
	FetchFileURLs bool `json:"fetch_file_urls"`

	RateLimit RateLimitConfig `json:"rate_limit"`

	// CallbackTimeout bounds one delivery attempt.
	CallbackTimeout Duration `json:"callback_timeout"`

	// LogEntries is how many entries of the callback log and, separately,
	// of the e-mail outbox the world keeps (the oldest settled ones go
	// first). 0 means DefaultLogLimit, so that worlds exported before the
	// setting existed import with the default.
	LogEntries int `json:"log_limit,omitempty"`
}

// RateLimitConfig is the per-account request limit. Headers are always sent;
// Enforce turns on 429 exceeded_rate answers.
type RateLimitConfig struct {
	Enforce bool     `json:"enforce"`
	Limit   int      `json:"limit"`
	Window  Duration `json:"window"`
}

// DefaultConfig is the configuration of a world whose fixtures set nothing.
func DefaultConfig() Config {
	return Config{
		ID:                       configRowID,
		SendProcessingDelay:      Duration(2 * time.Second),
		FilePreparationDelay:     Duration(5 * time.Second),
		TemplatePreparationDelay: Duration(10 * time.Second),
		CancelDelay:              Duration(30 * time.Second),
		ReminderInterval:         Duration(time.Hour),
		SignURLTTL:               Duration(time.Hour),
		EditURLTTL:               Duration(time.Hour),
		ClaimURLTTL:              Duration(time.Hour),
		FileURLTTL:               Duration(time.Hour),
		OAuthTokenTTL:            Duration(time.Hour),
		MaxFileBytes:             40 << 20,
		MaxWorldBytes:            512 << 20,
		FetchFileURLs:            true,
		RateLimit:                RateLimitConfig{Limit: 100, Window: Duration(time.Minute)},
		CallbackTimeout:          Duration(10 * time.Second),
		LogEntries:               DefaultLogLimit,
	}
}

func init() {
	Register[Config](&memdb.TableSchema{
		Name: TableConfig,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

// GetConfig reads the world's configuration.
func GetConfig(tx *Txn) Config {
	if tx.config != nil {
		return *tx.config
	}
	c, err := Get[Config](tx, TableConfig, configRowID)
	if err != nil {
		d := DefaultConfig()
		c = &d
	}
	if tx.cacheConfig {
		tx.config = c
	}
	return *c
}

// PutConfig replaces the world's configuration.
func PutConfig(tx *Txn, c Config) error {
	c.ID = configRowID
	return Put(tx, TableConfig, &c)
}
