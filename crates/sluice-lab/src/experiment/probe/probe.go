// sluice lab: probe (seed 000 §2), the go subject's side. Keep `blockers`
// goroutines busy with pbkdf2 (GOMAXPROCS is the pool size, so they hold
// every P), then time one operation of each kind while they run, and idle.
// os.Args[1]: {"probes": [ids], "blockers": n, "iterations": n, "settle_ms": ms,
//
//	"idle_runs": n, "rounds": n, "small_file": path, "big_file": path}
//
// Prints {"rows":[{"probe","idle_ms","probe_ms","blockers_left","blocker_ms","first_done_ms"}]}.
// "lookup" is Go's own resolver; "lookup-cgo" (added when lookup is asked)
// is getaddrinfo through cgo (GODEBUG=netdns=cgo).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"time"
)

type params struct {
	Probes     []string `json:"probes"`
	Blockers   int      `json:"blockers"`
	Iterations int      `json:"iterations"`
	SettleMs   int      `json:"settle_ms"`
	IdleRuns   int      `json:"idle_runs"`
	Rounds     int      `json:"rounds"`
	SmallFile  string   `json:"small_file"`
	BigFile    string   `json:"big_file"`
}

type probed struct {
	Probe        string  `json:"probe"`
	IdleMs       float64 `json:"idle_ms"`
	ProbeMs      float64 `json:"probe_ms"`
	BlockersLeft float64 `json:"blockers_left"`
	BlockerMs    float64 `json:"blocker_ms"`
	FirstDoneMs  float64 `json:"first_done_ms"`
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func main() {
	var p params
	readParams(&p)
	// The default resolver is the C library's; Go's own is asked explicitly.
	os.Setenv("GODEBUG", "netdns=cgo")
	pure := &net.Resolver{PreferGo: true}
	data, err := os.ReadFile(p.BigFile)
	if err != nil {
		fail(err)
	}
	// The loopback listener: 127.0.0.1 on a free port, ::1 on the same port
	// where the machine has it; accepted connections are closed at once.
	v4, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(fmt.Errorf("cannot listen on 127.0.0.1: %w", err))
	}
	port := strconv.Itoa(v4.Addr().(*net.TCPAddr).Port)
	listeners := []net.Listener{v4}
	if v6, err := net.Listen("tcp", "[::1]:"+port); err == nil {
		listeners = append(listeners, v6)
	}
	for _, l := range listeners {
		go func(l net.Listener) {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}(l)
	}
	dial := func(host string) error {
		c, err := net.Dial("tcp", net.JoinHostPort(host, port))
		if err == nil {
			c.Close()
		}
		return err
	}
	probes := map[string]func() error{
		"read": func() error { _, err := os.ReadFile(p.SmallFile); return err },
		"stat": func() error { _, err := os.Stat(p.SmallFile); return err },
		"gzip": func() error {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			if _, err := w.Write(data); err != nil {
				return err
			}
			return w.Close()
		},
		"lookup": func() error {
			_, err := pure.LookupHost(context.Background(), "localhost")
			return err
		},
		"lookup-cgo": func() error {
			_, err := net.DefaultResolver.LookupHost(context.Background(), "localhost")
			return err
		},
		"random": func() error {
			var b [32]byte
			_, err := rand.Read(b[:])
			return err
		},
		"connect-ip":   func() error { return dial("127.0.0.1") },
		"connect-name": func() error { return dial("localhost") },
		"timer":        func() error { <-time.After(0); return nil },
	}
	kinds := []string{}
	for _, k := range p.Probes {
		if _, ok := probes[k]; !ok {
			fail(fmt.Errorf("unknown probe %q", k))
		}
		kinds = append(kinds, k)
		if k == "lookup" {
			kinds = append(kinds, "lookup-cgo")
		}
	}
	timed := func(kind string) float64 {
		t := time.Now()
		if err := probes[kind](); err != nil {
			fail(fmt.Errorf("%s: %w", kind, err))
		}
		return ms(time.Since(t))
	}
	idle := map[string]float64{}
	for _, k := range kinds {
		times := []float64{}
		for i := 0; i <= p.IdleRuns; i++ {
			t := timed(k)
			if i > 0 {
				times = append(times, t)
			}
		}
		idle[k] = median(times)
	}
	// One round: fresh blockers, the probe issued settle_ms after them.
	round := func(k string) (probeMs float64, left int, blockerMs, firstMs float64) {
		t0 := time.Now()
		ends := make(chan time.Time, p.Blockers)
		for i := 0; i < p.Blockers; i++ {
			go func() {
				pbkdf2SHA512(p.Iterations)
				ends <- time.Now()
			}()
		}
		time.Sleep(time.Duration(p.SettleMs) * time.Millisecond)
		issued := time.Now()
		probeMs = timed(k)
		first, took := time.Duration(1<<62), []float64{}
		for i := 0; i < p.Blockers; i++ {
			e := <-ends
			if e.After(issued) {
				left++
			}
			if d := e.Sub(issued); d < first {
				first = d
			}
			took = append(took, ms(e.Sub(t0)))
		}
		time.Sleep(20 * time.Millisecond)
		return probeMs, left, median(took), ms(first)
	}
	rows := []probed{}
	for _, k := range kinds {
		fewest := p.Blockers
		var probeMs, blockerMs, firstMs []float64
		for r := 0; r == 0 || r < p.Rounds; r++ {
			pm, left, bm, fm := round(k)
			probeMs, blockerMs, firstMs = append(probeMs, pm), append(blockerMs, bm), append(firstMs, fm)
			if left < fewest {
				fewest = left
			}
		}
		rows = append(rows, probed{
			Probe: k, IdleMs: idle[k], ProbeMs: median(probeMs), BlockersLeft: float64(fewest),
			BlockerMs: median(blockerMs), FirstDoneMs: median(firstMs),
		})
	}
	for _, l := range listeners {
		l.Close()
	}
	out, _ := json.Marshal(map[string]any{"rows": rows})
	fmt.Println(string(out))
}
