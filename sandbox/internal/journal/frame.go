package journal

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// A journal file is a sequence of frames: a 4-byte big-endian payload
// length, the 4-byte CRC-32C of the payload, then the payload. A frame
// that is cut short or whose checksum does not match is a torn tail (the
// process died while writing it, or the machine before the page reached
// the disk): it and anything after it are dropped on restore.

// frameHeader is the length and checksum before each payload.
const frameHeader = 8

// maxFrame bounds a payload, so that a corrupt length cannot make restore
// allocate gigabytes.
const maxFrame = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frame returns payload framed for appending in one write.
func frame(payload []byte) []byte {
	out := make([]byte, frameHeader+len(payload))
	binary.BigEndian.PutUint32(out[0:4], uint32(len(payload)))
	binary.BigEndian.PutUint32(out[4:8], crc32.Checksum(payload, castagnoli))
	copy(out[frameHeader:], payload)
	return out
}

// readFrames calls fn with each intact payload in order and returns the
// offset just after the last intact frame; a torn tail is not an error
// (its offset tells where to cut), a failing fn is.
func readFrames(r io.Reader, fn func(payload []byte) error) (good int64, torn bool, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [frameHeader]byte
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if err == io.EOF {
				return good, false, nil
			}
			return good, true, nil
		}
		n := binary.BigEndian.Uint32(hdr[0:4])
		if n > maxFrame {
			return good, true, nil
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(br, payload); err != nil {
			return good, true, nil
		}
		if crc32.Checksum(payload, castagnoli) != binary.BigEndian.Uint32(hdr[4:8]) {
			return good, true, nil
		}
		if err := fn(payload); err != nil {
			return good, false, err
		}
		good += int64(frameHeader) + int64(n)
	}
}
