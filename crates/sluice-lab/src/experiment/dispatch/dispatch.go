// sluice lab: dispatch, the go subject's side. Go has no pool to dispatch
// to; the nearest thing is starting a goroutine and hearing back from it on
// a channel. One round trip: `go` a function that sends on a channel, and
// receive.
// os.Args[1]: {"rounds", "batch", "batch_ms", "batches", "warmup", "settle_ms", "idle_ms", ...}
// Prints {"one_wall_ns": [..], "batch_wall_ns": [..], "batch_tasks": [..], "idle": {..}}.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

type params struct {
	Rounds   int `json:"rounds"`
	Batch    int `json:"batch"`
	BatchMs  int `json:"batch_ms"`
	Batches  int `json:"batches"`
	Warmup   int `json:"warmup"`
	SettleMs int `json:"settle_ms"`
	IdleMs   int `json:"idle_ms"`
}

// oneInFlight: `rounds` round trips one after another.
func oneInFlight(rounds int) float64 {
	done := make(chan struct{})
	t0 := time.Now()
	for i := 0; i < rounds; i++ {
		go func() { done <- struct{}{} }()
		<-done
	}
	return float64(time.Since(t0).Nanoseconds())
}

// wave: `batch` goroutines at once, then every answer.
func wave(batch int) float64 {
	done := make(chan struct{}, batch)
	t0 := time.Now()
	for i := 0; i < batch; i++ {
		go func() { done <- struct{}{} }()
	}
	for i := 0; i < batch; i++ {
		<-done
	}
	return float64(time.Since(t0).Nanoseconds())
}

// series: `warmup` untimed runs, then `batches` timed ones: their walls,
// and the tasks each ran.
func series(p params, run func(int) (float64, int), arg int) ([]float64, []float64) {
	walls, counts := []float64{}, []float64{}
	for i := 0; len(walls) < p.Batches; i++ {
		w, n := run(arg)
		if i >= p.Warmup {
			walls = append(walls, w)
			counts = append(counts, float64(n))
		}
	}
	return walls, counts
}

// statTicks is utime + stime of the whole process, in clock ticks.
func statTicks() float64 {
	b, _ := os.ReadFile("/proc/self/stat")
	s := string(b)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+1:])
	u, _ := strconv.ParseFloat(fields[11], 64)
	st, _ := strconv.ParseFloat(fields[12], 64)
	return u + st
}

// others: per thread but the process's first (its tid is the pid), run
// time from schedstat and context switches; and the thread count.
func others() (map[string][2]float64, int) {
	out := map[string][2]float64{}
	entries, _ := os.ReadDir("/proc/self/task")
	pid := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		tid := e.Name()
		if tid == pid {
			continue
		}
		sched, err := os.ReadFile("/proc/self/task/" + tid + "/schedstat")
		if err != nil {
			continue
		}
		ns, _ := strconv.ParseFloat(strings.Fields(string(sched))[0], 64)
		status, err := os.ReadFile("/proc/self/task/" + tid + "/status")
		if err != nil {
			continue
		}
		switches := 0.0
		for _, l := range strings.Split(string(status), "\n") {
			if strings.Contains(l, "ctxt_switches:") {
				v, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
				switches += v
			}
		}
		out[tid] = [2]float64{ns, switches}
	}
	return out, len(entries)
}

func main() {
	var p params
	readParams(&p)
	one, _ := series(p, func(rounds int) (float64, int) { return oneInFlight(rounds), rounds }, p.Rounds)
	// Waves of `batch` until their walls add up to batch_ms.
	batch, tasks := series(p, func(b int) (float64, int) {
		wall, n := 0.0, 0
		for n == 0 || wall < float64(p.BatchMs)*1e6 {
			wall += wave(b)
			n += b
		}
		return wall, n
	}, p.Batch)
	time.Sleep(time.Duration(p.SettleMs) * time.Millisecond)
	before, _ := others()
	t0 := time.Now()
	ticks0 := statTicks()
	time.Sleep(time.Duration(p.IdleMs) * time.Millisecond)
	ticks1 := statTicks()
	window := float64(time.Since(t0).Nanoseconds())
	after, threads := others()
	ns, switches := 0.0, 0.0
	for tid, a := range after {
		if b, ok := before[tid]; ok {
			ns += a[0] - b[0]
			switches += a[1] - b[1]
		}
	}
	out, _ := json.Marshal(map[string]any{
		"one_wall_ns":   one,
		"batch_wall_ns": batch,
		"batch_tasks":   tasks,
		"idle": map[string]float64{
			"window_ns": window, "ticks": ticks1 - ticks0, "thread_ns": ns,
			"switches": switches, "threads": float64(threads),
		},
	})
	fmt.Println(string(out))
}
