// sluice lab: loop-vs-pool (seed 000 §3), the go subject's side. Go has no
// event loop: how late does a 50 ms timer fire while goroutines compute, or
// while one goroutine holds its thread (runtime.LockOSThread) in a spin?
// os.Args[1]: {"scenarios": [{"id": "idle"|"loop"|"pool-N", "tasks": N}],
//
//	"timer_ms": ms, "loop_ms": ms, "iterations": n, "gap_ms": ms}
//
// Prints {"rows":[{"scenario","fired_ms","load_ms"}]}.
//
// loop: the goroutine that set the timer locks itself to its thread and
// spins loop_ms; the timer's channel is read by another goroutine, which
// Go runs on another P, or (GOMAXPROCS=1) after preempting the spin
// (asynchronous preemption, since Go 1.14).
// pool-N: N goroutines of pbkdf2-sha512 (GOMAXPROCS is the pool size).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

type scenario struct {
	ID    string `json:"id"`
	Tasks int    `json:"tasks"`
}

type params struct {
	Scenarios  []scenario `json:"scenarios"`
	TimerMs    int        `json:"timer_ms"`
	LoopMs     int        `json:"loop_ms"`
	Iterations int        `json:"iterations"`
	GapMs      int        `json:"gap_ms"`
}

type fired struct {
	Scenario string  `json:"scenario"`
	FiredMs  float64 `json:"fired_ms"`
	LoadMs   float64 `json:"load_ms"`
}

func run(p params, sc scenario) fired {
	t0 := time.Now()
	timer := time.NewTimer(time.Duration(p.TimerMs) * time.Millisecond)
	firedAt := make(chan time.Duration, 1)
	go func() {
		<-timer.C
		firedAt <- time.Since(t0)
	}()
	var load time.Duration
	switch {
	case sc.ID == "idle":
	case sc.ID == "loop":
		done := make(chan time.Duration)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := time.Now()
			for time.Since(start) < time.Duration(p.LoopMs)*time.Millisecond {
				// the thread is busy: only preemption or another P runs the timer
			}
			done <- time.Since(t0)
		}()
		load = <-done
	case strings.HasPrefix(sc.ID, "pool-"):
		ends := make(chan time.Duration, sc.Tasks)
		for i := 0; i < sc.Tasks; i++ {
			go func() {
				pbkdf2SHA512(p.Iterations)
				ends <- time.Since(t0)
			}()
		}
		for i := 0; i < sc.Tasks; i++ {
			if e := <-ends; e > load {
				load = e
			}
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown scenario %q\n", sc.ID)
		os.Exit(1)
	}
	return fired{Scenario: sc.ID, FiredMs: ms(<-firedAt), LoadMs: ms(load)}
}

func main() {
	var p params
	readParams(&p)
	rows := []fired{}
	for _, sc := range p.Scenarios {
		time.Sleep(time.Duration(p.GapMs) * time.Millisecond)
		rows = append(rows, run(p, sc))
	}
	out, _ := json.Marshal(map[string]any{"rows": rows})
	fmt.Println(string(out))
}
