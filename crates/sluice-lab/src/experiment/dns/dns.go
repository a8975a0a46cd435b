// sluice lab: dns (seed 001, "The lab: my own resolver"), the go subject's
// side. Runs inside the lab's network namespace, whose only name server is
// the DNS delay server. Looks up every name at once, IPv4, one goroutine
// each, and times the batch.
// os.Args[1]: {"names": [..], "method": "pure"|"cgo", "warmup": name, "answer": ip}
//
// pure: a net.Resolver with PreferGo, Go's own resolver: /etc/hosts, then
// UDP to the name server from the goroutine, parked on the netpoller.
// cgo: net.DefaultResolver under GODEBUG=netdns=cgo: getaddrinfo(3) in a
// cgo call, which holds a thread per lookup.
// Prints {"total_ms", "resolved", "errors", "hosts_match", "threads_before",
// "threads_peak"}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

type params struct {
	Names  []string `json:"names"`
	Method string   `json:"method"`
	Warmup string   `json:"warmup"`
	Answer string   `json:"answer"`
}

type reply struct {
	TotalMs       float64  `json:"total_ms"`
	Resolved      int      `json:"resolved"`
	Errors        []string `json:"errors"`
	HostsMatch    uint8    `json:"hosts_match"`
	ThreadsBefore int      `json:"threads_before"`
	ThreadsPeak   int      `json:"threads_peak"`
}

func lookup(r *net.Resolver, name string) ([]string, error) {
	ips, err := r.LookupIP(context.Background(), "ip4", name)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ips))
	for _, ip := range ips {
		out = append(out, ip.String())
	}
	sort.Strings(out)
	return out, nil
}

func main() {
	var p params
	readParams(&p)
	// The default resolver is the C library's; the pure one is asked for
	// explicitly, so both answer localhost below.
	os.Setenv("GODEBUG", "netdns=cgo")
	pure := &net.Resolver{PreferGo: true}
	var r *net.Resolver
	switch p.Method {
	case "pure":
		r = pure
	case "cgo":
		r = net.DefaultResolver
	default:
		fail(fmt.Errorf("method %q: expected pure or cgo", p.Method))
	}
	// /etc/hosts honoured: Go's resolver answers localhost as getaddrinfo does.
	var out reply
	a, errA := lookup(pure, "localhost")
	b, errB := lookup(net.DefaultResolver, "localhost")
	if errA == nil && errB == nil && fmt.Sprint(a) == fmt.Sprint(b) && len(a) > 0 {
		out.HostsMatch = 1
	}
	if _, err := lookup(r, p.Warmup); err != nil {
		fail(fmt.Errorf("warm-up %s: %w", p.Warmup, err))
	}
	out.ThreadsBefore = processThreads()
	var peak atomic.Int64
	peak.Store(int64(out.ThreadsBefore))
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if n := int64(processThreads()); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	t0 := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, name := range p.Names {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			ips, err := lookup(r, name)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if len(out.Errors) < 3 {
					out.Errors = append(out.Errors, err.Error())
				}
			} else if len(ips) == 1 && ips[0] == p.Answer {
				out.Resolved++
			}
		}(name)
	}
	wg.Wait()
	out.TotalMs = float64(time.Since(t0).Nanoseconds()) / 1e6
	close(done)
	<-sampled
	out.ThreadsPeak = int(peak.Load())
	if out.Errors == nil {
		out.Errors = []string{}
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
