package sigreq

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
)

// decodedGeneration is how a job's arguments were read before
// jobGeneration: encoding/json, with no arguments meaning generation 0.
func decodedGeneration(raw []byte) (int, bool) {
	var args JobArgs
	if len(raw) > 0 && json.Unmarshal(raw, &args) != nil {
		return 0, false
	}
	return args.Generation, true
}

// TestJobGenerationReadsAsDecoded: the arguments Schedule writes, and
// every other spelling (spaces, signs, leading zeros, exponents, other
// keys, overflow, broken JSON), give the generation encoding/json gave,
// and fail where it failed.
func TestJobGenerationReadsAsDecoded(t *testing.T) {
	cases := []string{"", "{}", "null", `{"generation":0}`, `{"generation":00}`, `{"generation":-1}`, `{"generation":-0}`,
		`{"generation":+1}`, `{"generation":1e2}`, `{"generation":1.0}`, `{"generation": 7}`, `{"generation":7 }`,
		`{"Generation":7}`, `{"generation":"7"}`, `{"generation":7,"x":1}`, `{"generation":}`, `{"generation":7`,
		`{"generation":7}}`, `{"generation":999999999999999999}`, `{"generation":9223372036854775807}`,
		`{"generation":9223372036854775808}`, `{"generation":99999999999999999999}`, `{"generation":1_0}`,
		`{"generation":0x10}`, `{"generation":12a}`, `{"generation":null}`, `[7]`, `7`}
	for _, g := range []int{0, 1, 2, 9, 10, 42, 1000, 1 << 31, 1<<62 + 5} {
		b, err := json.Marshal(JobArgs{Generation: g})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, string(b))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		cases = append(cases, `{"generation":`+strconv.FormatUint(rng.Uint64()>>rng.UintN(64), 10)+`}`)
	}
	for _, c := range cases {
		gotN, gotOK := jobGeneration(json.RawMessage(c))
		wantN, wantOK := decodedGeneration([]byte(c))
		if gotN != wantN || gotOK != wantOK {
			t.Errorf("jobGeneration(%s) = %d, %v; encoding/json gave %d, %v", c, gotN, gotOK, wantN, wantOK)
		}
	}
}

// FuzzJobGeneration holds jobGeneration to encoding/json on any input.
func FuzzJobGeneration(f *testing.F) {
	for _, s := range []string{`{"generation":3}`, `{"generation":0}`, `{"generation":-3}`, `{}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		gotN, gotOK := jobGeneration(raw)
		wantN, wantOK := decodedGeneration(raw)
		if gotN != wantN || gotOK != wantOK {
			t.Fatalf("jobGeneration(%q) = %d, %v; encoding/json gave %d, %v", raw, gotN, gotOK, wantN, wantOK)
		}
	})
}
