// Helpers every Go program of the lab shares. The lab writes this file
// beside an experiment's own program (main.go) before `go build`.
package main

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// readParams decodes the params the lab passes (JSON in os.Args[1]) into
// p, or ends the program.
func readParams(p any) {
	if err := json.Unmarshal([]byte(os.Args[1]), p); err != nil {
		fail(fmt.Errorf("params: %w", err))
	}
}

// pbkdf2 is PBKDF2-HMAC over hash h, keyLen bytes, as the other subjects
// compute it (password "secret", salt "salt").
func pbkdf2(h func() hash.Hash, iterations, keyLen int) []byte {
	mac := hmac.New(h, []byte("secret"))
	out := make([]byte, 0, keyLen)
	for block := uint32(1); len(out) < keyLen; block++ {
		var idx [4]byte
		binary.BigEndian.PutUint32(idx[:], block)
		mac.Reset()
		mac.Write([]byte("salt"))
		mac.Write(idx[:])
		u := mac.Sum(nil)
		t := append([]byte(nil), u...)
		for i := 1; i < iterations; i++ {
			mac.Reset()
			mac.Write(u)
			u = mac.Sum(u[:0])
			for j := range t {
				t[j] ^= u[j]
			}
		}
		out = append(out, t...)
	}
	return out[:keyLen]
}

// pbkdf2SHA512 is PBKDF2-HMAC-SHA512, one 64-byte block: the pool tasks'
// hash.
func pbkdf2SHA512(iterations int) []byte { return pbkdf2(sha512.New, iterations, 64) }

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// fail ends the program with the error on stderr (the lab shows it).
func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// monotonicNs is CLOCK_MONOTONIC, the clock the lab stamps rounds with.
func monotonicNs() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 1, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// processThreads is how many threads the process has now (the entries of
// /proc/self/task), 0 where /proc cannot be read.
func processThreads() int {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0
	}
	return len(entries)
}
