// Helpers every Go program of the lab shares. The lab writes this file
// beside an experiment's own program (main.go) before `go build`.
package main

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// pbkdf2SHA512 is PBKDF2-HMAC-SHA512 with one 64-byte block, as the other
// subjects compute it ("secret", "salt").
func pbkdf2SHA512(iterations int) []byte {
	mac := hmac.New(sha512.New, []byte("secret"))
	var idx [4]byte
	binary.BigEndian.PutUint32(idx[:], 1)
	mac.Write([]byte("salt"))
	mac.Write(idx[:])
	u := mac.Sum(nil)
	out := append([]byte(nil), u...)
	for i := 1; i < iterations; i++ {
		mac.Reset()
		mac.Write(u)
		u = mac.Sum(u[:0])
		for j := range out {
			out[j] ^= u[j]
		}
	}
	return out
}

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
