// Package recording writes sessions as scenario files: the calls of a
// world being recorded (API and control calls with their exact answers,
// from the world's exported state at the start), /_sandbox/record (start,
// status, stop), and the recording proxy that records the traffic it
// forwards to another server speaking this API. `signsandbox run` replays
// what it writes.
package recording
