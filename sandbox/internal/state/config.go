package state

import (
	"time"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

const (
	// TableConfig holds the single Config row of a world.
	TableConfig = "config"
	configRowID = "config"
)

// DefaultAutoReminderDelays are the real service's default automatic
// reminders: three and seven days after the request was sent
// (docs/fidelity.md has the evidence).
func DefaultAutoReminderDelays() []model.Duration {
	return []model.Duration{model.Duration(3 * 24 * time.Hour), model.Duration(7 * 24 * time.Hour)}
}

// DefaultConfig is the configuration of a world whose fixtures set nothing.
func DefaultConfig() model.Config {
	return model.Config{
		ID:                       configRowID,
		SendProcessingDelay:      model.Duration(2 * time.Second),
		FilePreparationDelay:     model.Duration(5 * time.Second),
		TemplatePreparationDelay: model.Duration(10 * time.Second),
		CancelDelay:              model.Duration(30 * time.Second),
		ReminderInterval:         model.Duration(time.Hour),
		AutoReminders:            model.AutoReminderConfig{Enabled: true, After: DefaultAutoReminderDelays()},
		SignURLTTL:               model.Duration(time.Hour),
		EditURLTTL:               model.Duration(time.Hour),
		ClaimURLTTL:              model.Duration(time.Hour),
		FileURLTTL:               model.Duration(time.Hour),
		OAuthTokenTTL:            model.Duration(time.Hour),
		MaxFileBytes:             40 << 20,
		MaxWorldBytes:            512 << 20,
		FetchFileURLs:            true,
		RateLimit:                model.RateLimitConfig{Limit: 100, Window: model.Duration(time.Minute)},
		CallbackTimeout:          model.Duration(10 * time.Second),
		LogEntries:               model.DefaultLogLimit,
	}
}

// registerConfig adds the world's configuration.
func registerConfig() {
	Register[model.Config](&memdb.TableSchema{
		Name: TableConfig,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	// A write caches the configuration it read (GetConfig) until it
	// puts a new one.
	setOptions(TableConfig, func(o *tableOptions) {
		o.beforePut = func(tx *Txn, row any) any {
			tx.config = nil
			return row
		}
	})
}

// GetConfig reads the world's configuration.
func GetConfig(tx *Txn) model.Config {
	if tx.config != nil {
		return *tx.config
	}
	c, err := Get[model.Config](tx, TableConfig, configRowID)
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
func PutConfig(tx *Txn, c model.Config) error {
	c.ID = configRowID
	return Put(tx, TableConfig, &c)
}
