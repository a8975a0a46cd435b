// sluice lab: staircase (seed 000 §1), the go subject's side. n concurrent
// tasks as goroutines, total wall ms per round.
// os.Args[1]: {"kind": "wait"|"cpu", "ns": [..], "fifo": path, "gap_ms": ms,
// "iterations": n, "go_wait": "raw"|"netpoll"}
// Prints {"event":"begin","t":ns,"n":n} before each round, then
// {"rows":[{"n","total_ms"}]}.
//
// wait, raw: syscall.Read of one byte on a blocking fd: the goroutine's M
// (thread) blocks in read(2), its P is handed to another M (started if
// none is idle), so every wait holds a thread of its own.
// wait, netpoll: (*os.File).Read on the FIFO, which Go puts on its
// netpoller: the goroutine parks, no thread is held.
// cpu: pbkdf2-sha512 over crypto/hmac; GOMAXPROCS bounds how many compute.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

type params struct {
	Kind       string   `json:"kind"`
	Ns         []uint64 `json:"ns"`
	GapMs      uint64   `json:"gap_ms"`
	Iterations int      `json:"iterations"`
	Fifo       string   `json:"fifo"`
	GoWait     string   `json:"go_wait"`
}

type round struct {
	N       uint64  `json:"n"`
	TotalMs float64 `json:"total_ms"`
}

func main() {
	var p params
	readParams(&p)
	var task func() error
	switch {
	case p.Kind == "cpu":
		task = func() error { pbkdf2SHA512(p.Iterations); return nil }
	case p.Kind == "wait" && p.GoWait == "raw":
		fd, err := syscall.Open(p.Fifo, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			fail(fmt.Errorf("opening the FIFO: %w", err))
		}
		task = func() error {
			var b [1]byte
			for {
				_, err := syscall.Read(fd, b[:])
				if err != syscall.EINTR {
					return err
				}
			}
		}
	case p.Kind == "wait" && p.GoWait == "netpoll":
		f, err := os.Open(p.Fifo)
		if err != nil {
			fail(fmt.Errorf("opening the FIFO: %w", err))
		}
		task = func() error {
			var b [1]byte
			_, err := f.Read(b[:])
			return err
		}
	default:
		fail(fmt.Errorf("kind %q with go_wait %q: expected cpu, or wait with raw or netpoll", p.Kind, p.GoWait))
	}
	rows := []round{}
	for _, n := range p.Ns {
		fmt.Printf("{\"event\":\"begin\",\"t\":%d,\"n\":%d}\n", monotonicNs(), n)
		t0 := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := uint64(0); i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := task(); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			fail(err)
		}
		rows = append(rows, round{N: n, TotalMs: float64(time.Since(t0).Nanoseconds()) / 1e6})
		time.Sleep(time.Duration(p.GapMs) * time.Millisecond)
	}
	out, _ := json.Marshal(map[string]any{"rows": rows})
	fmt.Println(string(out))
}
