package state

import (
	"strconv"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

// BenchmarkLogAppend measures what recording an e-mail and an event costs
// a write once both logs are full, so that every entry added drops the
// oldest one: the state's share of a send's processing job. A batch of
// them in one write (a clock advance running the jobs of 1,000 sends),
// and one write per entry pair (a signing or control-plane action). The
// world's sequence moves as sends move it between the entries (see
// sendNumbers). B/op and allocs/op are per entry pair.
func BenchmarkLogAppend(b *testing.B) {
	for _, bc := range []struct {
		name  string
		batch int
	}{{"write", 1}, {"batch", 1000}} {
		b.Run(bc.name, func(b *testing.B) {
			st := seededStore(b)
			const limit = 10000
			require.NoError(b, st.Update(func(tx *Txn) error {
				c := GetConfig(tx)
				c.LogEntries = limit
				return PutConfig(tx, c)
			}))
			n := 0
			appendPairs := func(k int) {
				require.NoError(b, st.Update(func(tx *Txn) error {
					for i := 0; i < k*sendNumbers; i++ {
						tx.Seq() // the sends of the jobs
					}
					for i := 0; i < k; i++ {
						if err := appendLogPair(tx, n); err != nil {
							return err
						}
						n++
					}
					return nil
				}))
			}
			for n < limit+trimScan {
				appendPairs(1000)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += bc.batch {
				appendPairs(min(bc.batch, b.N-i))
			}
		})
	}
}

// sendNumbers is about how many numbers of the world's sequence a send
// takes: the sends before a clock advance set the seq numbers of the
// entries their jobs log that far apart from those of the previous
// advance, while the jobs of one advance take a handful each.
const sendNumbers = 12

// appendLogPair records the e-mail and the event of request number n, as
// a send's processing does.
func appendLogPair(tx *Txn, n int) error {
	req := "req" + strconv.Itoa(n)
	if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), Kind: "signature_request", To: "jack@example.com",
		Subject: "Benchmark NDA", SignatureRequestID: req, SignatureID: "sig" + strconv.Itoa(n), SentAt: tx.Unix()}); err != nil {
		return err
	}
	return AddEvent(tx, &model.Event{ID: tx.NewUUID(), Seq: tx.Seq(), Type: "signature_request_sent", Time: tx.Unix(),
		ObjectType: "signature_request", ObjectID: req})
}
