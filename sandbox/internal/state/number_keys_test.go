package state

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNumberKeysSortAsTheNumbers: the digit keys order unsigned and signed
// numbers exactly as the numbers are ordered, extremes included, so that
// every bound and ordered walk over these indexes answers as before.
func TestNumberKeysSortAsTheNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	us := []uint64{0, 1, 15, 16, 255, 256, math.MaxUint32, math.MaxUint64 - 1, math.MaxUint64}
	is := []int64{math.MinInt64, -1 << 40, -256, -1, 0, 1, 255, 256, math.MaxInt64}
	for i := 0; i < 2000; i++ {
		us = append(us, r.Uint64()>>r.IntN(64))
		is = append(is, int64(r.Uint64()>>r.IntN(64))*int64(1-2*r.IntN(2)))
	}
	u := &UintKey{Field: "Seq"}
	for _, a := range us {
		ka, err := u.FromArgs(a)
		require.NoError(t, err)
		require.Len(t, ka, numberKeyLen)
		for _, b := range us[:20] {
			kb, _ := u.FromArgs(b)
			assert.Equal(t, cmp.Compare(a, b), bytes.Compare(ka, kb), "%d vs %d", a, b)
		}
	}
	s := &IntKey{Field: "Due"}
	for _, a := range is {
		ka, err := s.FromArgs(a)
		require.NoError(t, err)
		for _, b := range is[:20] {
			kb, _ := s.FromArgs(b)
			assert.Equal(t, cmp.Compare(a, b), bytes.Compare(ka, kb), "%d vs %d", a, b)
		}
	}
}

// TestNumberKeysOfObjectsAndArgsAgree: a lookup by a number of any size
// finds the row whose field holds it, and a field of another kind is an
// error, not a panic.
func TestNumberKeysOfObjectsAndArgsAgree(t *testing.T) {
	row := &model.Job{Due: -7, Seq: 300}
	_, ko, err := (&UintKey{Field: "Seq"}).FromObject(row)
	require.NoError(t, err)
	for _, arg := range []any{uint64(300), uint(300), uint32(300), uint16(300)} {
		ka, err := (&UintKey{Field: "Seq"}).FromArgs(arg)
		require.NoError(t, err)
		assert.Equal(t, ko, ka, "%T", arg)
	}
	_, ko, err = (&IntKey{Field: "Due"}).FromObject(row)
	require.NoError(t, err)
	for _, arg := range []any{int64(-7), int(-7), int32(-7), int8(-7)} {
		ka, err := (&IntKey{Field: "Due"}).FromArgs(arg)
		require.NoError(t, err)
		assert.Equal(t, ko, ka, "%T", arg)
	}
	_, _, err = (&UintKey{Field: "Kind"}).FromObject(row)
	assert.Error(t, err)
	_, err = (&UintKey{Field: "Seq"}).FromArgs("300")
	assert.Error(t, err)
	_, err = (&IntKey{Field: "Due"}).FromArgs(uint64(1))
	assert.Error(t, err)
}
