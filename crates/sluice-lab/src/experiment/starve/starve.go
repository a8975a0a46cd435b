// sluice lab: starve (seed 001, "Who starves whom"), the go subject's side.
// Go has no pool: every task is a goroutine of its own, started at once.
// A: `queued` slow waits, then one file read and one CPU task.
// B: `queued` CPU tasks, then one file read and one slow wait.
//
// slow wait: syscall.Read of one byte on a blocking fd of the FIFO the lab
// holds: the goroutine's M (thread) blocks in read(2), its P is handed to
// another M, so every slow wait holds a thread of its own, none queues.
// file read: (*os.File).ReadAt of 1 KiB of a regular file (pread(2) on the
// goroutine's own thread; regular files are not on the netpoller).
// CPU task: pbkdf2-sha512 over crypto/hmac (common.go), calibrated here to
// ~cpu_ms; GOMAXPROCS (the lab's pool size) Ps share the CPU tasks by
// preemption, so a new goroutine waits for a P, not for the queue to drain.
//
// os.Args[1]: {"scenario": "A"|"B", "queued": n, "cpu_ms": ms, "file": path, "fifo": path}
// Prints {"event":"begin","t":ns,"scenario":s} before the scenario, then
// {"probes": {"file_read": {...}, "cpu_task"|"slow_wait": {...}}, "total_ms"
// (first go statement to the last goroutine's end), "task_ms" (one CPU task
// alone), "iterations", "completed" (queued tasks that finished)} where each probe has wait_ms (the go
// statement until the goroutine's first instruction), run_ms (its own run)
// and probe_ms (the go statement until it finished).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"
)

type params struct {
	Scenario string `json:"scenario"`
	Queued   int    `json:"queued"`
	CPUMs    int    `json:"cpu_ms"`
	File     string `json:"file"`
	Fifo     string `json:"fifo"`
}

type timing struct {
	WaitMs  float64 `json:"wait_ms"`
	ProbeMs float64 `json:"probe_ms"`
	RunMs   float64 `json:"run_ms"`
}

type reply struct {
	Probes     map[string]timing `json:"probes"`
	TotalMs    float64           `json:"total_ms"`
	TaskMs     float64           `json:"task_ms"`
	Iterations float64           `json:"iterations"`
	Completed  int               `json:"completed"`
}

// done is what a timed goroutine reports.
type done struct {
	submitted, start, end time.Time
	err                   error
}

func (d done) timing() timing {
	return timing{
		WaitMs:  ms(d.start.Sub(d.submitted)),
		ProbeMs: ms(d.end.Sub(d.submitted)),
		RunMs:   ms(d.end.Sub(d.start)),
	}
}

// submit starts job on a goroutine of its own now, stamping the go
// statement, the goroutine's start and its end.
func submit(job func() error) <-chan done {
	out := make(chan done, 1)
	submitted := time.Now()
	go func() {
		start := time.Now()
		err := job()
		out <- done{submitted, start, time.Now(), err}
	}()
	return out
}

// calibrate: iterations of pbkdf2-sha512 that take about cpuMs on an
// uncontended core, as the other subjects do it: a probe size that takes
// at least 2 ms (grown from 1000), then the fastest of five runs, scaled.
func calibrate(cpuMs int) int {
	time1 := func(iterations int) float64 {
		t := time.Now()
		pbkdf2SHA512(iterations)
		return ms(time.Since(t))
	}
	probe := 1000
	for probe < 1<<24 && time1(probe) < 2 {
		probe *= 4
	}
	fastest := time1(probe)
	for i := 0; i < 4; i++ {
		if t := time1(probe); t < fastest {
			fastest = t
		}
	}
	n := int(float64(cpuMs) / fastest * float64(probe))
	if n < 1 {
		n = 1
	}
	return n
}

func main() {
	var p params
	readParams(&p)
	if p.Scenario != "A" && p.Scenario != "B" {
		fail(fmt.Errorf("scenario %q: expected A or B", p.Scenario))
	}
	if p.Queued < 1 || p.CPUMs < 1 || p.File == "" || p.Fifo == "" {
		fail(fmt.Errorf("params %s: expected queued >= 1, cpu_ms >= 1, a file and a fifo", os.Args[1]))
	}
	file, err := os.Open(p.File)
	if err != nil {
		fail(fmt.Errorf("opening the file to read: %w", err))
	}
	// A raw fd, not os.Open: os would put the FIFO on the netpoller, and the
	// seed's slow wait holds a thread.
	fifo, err := syscall.Open(p.Fifo, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		fail(fmt.Errorf("opening the FIFO: %w", err))
	}
	iterations := calibrate(p.CPUMs)
	readFile := func() error {
		var buf [1024]byte
		_, err := file.ReadAt(buf[:], 0)
		return err
	}
	slowWait := func() error {
		var b [1]byte
		for {
			n, err := syscall.Read(fifo, b[:])
			if err == syscall.EINTR {
				continue
			}
			if err == nil && n != 1 {
				return fmt.Errorf("FIFO read returned %d bytes", n)
			}
			return err
		}
	}
	cpuTask := func() error { pbkdf2SHA512(iterations); return nil }

	if d := <-submit(readFile); d.err != nil {
		fail(fmt.Errorf("file read: %w", d.err))
	}
	alone := <-submit(cpuTask)

	fmt.Printf("{\"event\":\"begin\",\"t\":%d,\"scenario\":%q}\n", monotonicNs(), p.Scenario)
	t0 := time.Now()
	queue := make([]<-chan done, 0, p.Queued)
	for i := 0; i < p.Queued; i++ {
		if p.Scenario == "A" {
			queue = append(queue, submit(slowWait))
		} else {
			queue = append(queue, submit(cpuTask))
		}
	}
	first := submit(readFile)
	secondName, second := "cpu_task", (<-chan done)(nil)
	if p.Scenario == "A" {
		second = submit(cpuTask)
	} else {
		secondName, second = "slow_wait", submit(slowWait)
	}
	out := reply{Probes: map[string]timing{}}
	last := t0
	for i, c := range queue {
		d := <-c
		if d.err != nil {
			fail(fmt.Errorf("queued task %d: %w", i, d.err))
		}
		out.Completed++
		if d.end.After(last) {
			last = d.end
		}
	}
	for _, probe := range []struct {
		name string
		c    <-chan done
	}{{"file_read", first}, {secondName, second}} {
		d := <-probe.c
		if d.err != nil {
			fail(fmt.Errorf("%s: %w", probe.name, d.err))
		}
		out.Probes[probe.name] = d.timing()
		if d.end.After(last) {
			last = d.end
		}
	}
	out.TotalMs = ms(last.Sub(t0))
	out.TaskMs = ms(alone.end.Sub(alone.start))
	out.Iterations = float64(iterations)
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
