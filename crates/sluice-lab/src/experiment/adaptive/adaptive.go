// sluice lab: adaptive (seed 004 §2.3), the go subject's side of the wait,
// cpu and hung scenarios, at Go's defaults (GOMAXPROCS unset). Go's answer
// to a blocking system call is the one sluice's lanes copy: the P is handed
// to another thread, started if none is idle; Go keeps the threads after.
// os.Args[1]: {"scenario": "wait"|"cpu"|"hung", ...} (see adaptive/mod.rs)
// Prints {"event":"begin",...} before each wait round, then one JSON document.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"syscall"
	"time"
)

type params struct {
	Scenario   string `json:"scenario"`
	Fifo       string `json:"fifo"`
	File       string `json:"file"`
	Ns         []int  `json:"ns"`
	SettleMs   int    `json:"settle_ms"`
	N          int    `json:"n"`
	Iterations int    `json:"iterations"`
	Hung       int    `json:"hung"`
	HangMs     int    `json:"hang_ms"`
	Reads      int    `json:"reads"`
}

// readByte is one raw read(2) of one byte: the goroutine's thread blocks.
func readByte(fd int) error {
	var b [1]byte
	for {
		_, err := syscall.Read(fd, b[:])
		if err != syscall.EINTR {
			return err
		}
	}
}

func wait(p params) any {
	fd, err := syscall.Open(p.Fifo, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		fail(fmt.Errorf("opening the FIFO: %w", err))
	}
	largest := 0
	for _, n := range p.Ns {
		if n > largest {
			largest = n
		}
	}
	rows := []map[string]any{}
	for _, n := range p.Ns {
		before := processThreads()
		t0 := time.Now()
		var mu sync.Mutex
		timeline := [][2]float64{{0, float64(before)}}
		stop := make(chan struct{})
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					mu.Lock()
					timeline = append(timeline, [2]float64{ms(time.Since(t0)), float64(processThreads())})
					mu.Unlock()
				}
			}
		}()
		fmt.Printf("{\"event\":\"begin\",\"t\":%d,\"n\":%d}\n", monotonicNs(), n)
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := readByte(fd); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		total := ms(time.Since(t0))
		close(errs)
		if err := <-errs; err != nil {
			fail(err)
		}
		time.Sleep(time.Duration(p.SettleMs) * time.Millisecond)
		close(stop)
		<-stopped
		peak := 0.0
		for _, x := range timeline {
			if x[1] > peak {
				peak = x[1]
			}
		}
		row := map[string]any{
			"n": n, "total_ms": total, "threads_before": before,
			"threads_after": processThreads(), "threads_peak": peak,
		}
		if n == largest {
			row["timeline"] = timeline
		}
		rows = append(rows, row)
	}
	return map[string]any{"rows": rows}
}

func cpu(p params) any {
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < p.N; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pbkdf2SHA512(p.Iterations)
		}()
	}
	wg.Wait()
	return map[string]any{"n": p.N, "total_ms": ms(time.Since(t0))}
}

func hung(p params) any {
	// Read-write: opening never blocks; reads block until this process writes.
	fifo, err := syscall.Open(p.Fifo, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		fail(fmt.Errorf("opening the FIFO: %w", err))
	}
	file, err := os.Open(p.File)
	if err != nil {
		fail(err)
	}
	t0 := time.Now()
	time.AfterFunc(time.Duration(p.HangMs)*time.Millisecond, func() {
		syscall.Write(fifo, make([]byte, p.Hung))
	})
	hungDone := make(chan float64)
	go func() {
		var wg sync.WaitGroup
		for i := 0; i < p.Hung; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				readByte(fifo)
			}()
		}
		wg.Wait()
		hungDone <- ms(time.Since(t0))
	}()
	lat := make([]float64, p.Reads)
	var wg sync.WaitGroup
	for i := 0; i < p.Reads; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Until(t0.Add(time.Duration(100+2*i) * time.Millisecond)))
			buf := make([]byte, 4096)
			t := time.Now()
			if _, err := file.ReadAt(buf, 0); err != nil {
				fail(err)
			}
			lat[i] = ms(time.Since(t))
		}(i)
	}
	wg.Wait()
	hungTotal := <-hungDone
	sort.Float64s(lat)
	q := func(x float64) float64 {
		i := int(float64(len(lat))*x + 0.999999)
		if i < 1 {
			i = 1
		}
		if i > len(lat) {
			i = len(lat)
		}
		return lat[i-1]
	}
	return map[string]any{
		"reads": len(lat), "p50_ms": q(0.5), "p99_ms": q(0.99),
		"max_ms": lat[len(lat)-1], "hung_total_ms": hungTotal,
	}
}

func main() {
	var p params
	readParams(&p)
	var out any
	switch p.Scenario {
	case "wait":
		out = wait(p)
	case "cpu":
		out = cpu(p)
	case "hung":
		out = hung(p)
	default:
		fail(fmt.Errorf("go has no %s scenario", p.Scenario))
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
