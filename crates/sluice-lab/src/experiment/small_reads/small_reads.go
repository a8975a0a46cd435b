// sluice lab: small-reads (seed 000 §5, the second counter-example), the go
// subject's side. Many 4 KB os.ReadFile calls, a fixed number in flight, as
// goroutines: a regular file's read(2) blocks its thread (Go does not put
// regular files on its netpoller), so the reads run on threads as Go hands
// the Ps on, with GOMAXPROCS (the pool size) Ps.
// os.Args[1]: {"file": path, "n": 4000, "in_flight": 200, "rounds": r, "bytes": 4096}
// One warm-up round, then `rounds` timed rounds.
// Prints {"rounds_ms": [..], "bad_reads": n}.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

type params struct {
	File     string `json:"file"`
	N        int64  `json:"n"`
	InFlight int64  `json:"in_flight"`
	Rounds   int    `json:"rounds"`
	Bytes    int    `json:"bytes"`
}

func main() {
	var p params
	readParams(&p)
	var bad atomic.Int64
	round := func() float64 {
		var next atomic.Int64
		t0 := time.Now()
		var wg sync.WaitGroup
		workers := p.InFlight
		if p.N < workers {
			workers = p.N
		}
		for i := int64(0); i < workers; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= p.N {
					data, err := os.ReadFile(p.File)
					if err != nil || len(data) != p.Bytes {
						bad.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		return float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	round()
	rounds := []float64{}
	for i := 0; i < p.Rounds; i++ {
		rounds = append(rounds, round())
	}
	out, _ := json.Marshal(map[string]any{"rounds_ms": rounds, "bad_reads": bad.Load()})
	fmt.Println(string(out))
}
