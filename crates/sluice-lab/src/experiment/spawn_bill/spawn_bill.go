// sluice lab: spawn-bill (seed 000 §4, seed 001 "The bill for growing it"),
// the go subject's side. Go starts no pool: its bill is a thread per
// blocked system call. `blocked` goroutines each block in a raw read(2) of
// a pipe (a blocking fd, not on the netpoller); once /proc shows every one
// of them in read(2), the child reads /proc/self/status again, then
// releases them.
// os.Args[1]: {"part": "bill", "blocked": n, "max_threads": m (0: Go's default, 10000)}
// With max_threads, the same runs in a second process under
// debug.SetMaxThreads(m): past the limit Go stops that process ("fatal
// error: thread exhaustion"), and this one prints {"fatal": what Go said}.
// Prints {"before": status, "after": status}.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type params struct {
	Part       string `json:"part"`
	Blocked    int    `json:"blocked"`
	MaxThreads int    `json:"max_threads"`
}

type status struct {
	Threads      uint64 `json:"threads"`
	VmSizeKb     uint64 `json:"vm_size_kb"`
	VmRssKb      uint64 `json:"vm_rss_kb"`
	MallocArenas uint64 `json:"malloc_arenas"`
}

const arena = 64 * 1024 * 1024

// mallocArenas: the rule of spawn_bill/mod.rs (glibc arenas other than the
// main one: anonymous mappings exactly covering a 64 MiB-aligned 64 MiB span,
// the first read-write). Go allocates with mmap, so this counts cgo's only.
func mallocArenas() uint64 {
	b, _ := os.ReadFile("/proc/self/maps")
	type span struct {
		a, b uint64
		rw   bool
	}
	anon := []span{}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 5 || f[4] != "0" {
			continue
		}
		ab := strings.SplitN(f[0], "-", 2)
		a, _ := strconv.ParseUint(ab[0], 16, 64)
		e, _ := strconv.ParseUint(ab[1], 16, 64)
		anon = append(anon, span{a, e, strings.HasPrefix(f[1], "rw")})
	}
	count := uint64(0)
	for i, s := range anon {
		if !s.rw || s.a%arena != 0 {
			continue
		}
		end := s.a
		for _, t := range anon[i:] {
			if t.a != end || t.b > s.a+arena {
				break
			}
			end = t.b
		}
		if end == s.a+arena {
			count++
		}
	}
	return count
}

func readStatus() status {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fail(err)
	}
	field := func(name string) uint64 {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, name+":") {
				f := strings.Fields(l)
				v, _ := strconv.ParseUint(f[1], 10, 64)
				return v
			}
		}
		fail(fmt.Errorf("no %s in /proc/self/status", name))
		return 0
	}
	return status{field("Threads"), field("VmSize"), field("VmRSS"), mallocArenas()}
}

// inRead counts the threads blocked in read(2) on fd.
func inRead(fd int) int {
	want := fmt.Sprintf("0x%x", fd)
	entries, _ := os.ReadDir("/proc/self/task")
	n := 0
	for _, e := range entries {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/syscall")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 1 && f[0] == "0" && f[1] == want {
			n++
		}
	}
	return n
}

// limited runs this program again under debug.SetMaxThreads: past the
// limit Go stops the process, so a second process reports what it said
// ({"fatal": "..."}), or its result if it lived.
func limited(p params) {
	cmd := exec.Command(os.Args[0], os.Args[1])
	cmd.Env = append(os.Environ(), "SLUICE_LAB_GO_LIMITED=1", "GOTRACEBACK=none")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil {
		os.Stdout.Write(stdout.Bytes())
		return
	}
	said := []string{}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "runtime: ") || strings.HasPrefix(l, "fatal error: ") {
			said = append(said, strings.TrimSpace(l))
		}
	}
	if len(said) == 0 {
		fail(fmt.Errorf("the limited run failed without Go's fatal error: %s", stderr.String()))
	}
	out, _ := json.Marshal(map[string]string{"fatal": strings.Join(said, "; ")})
	fmt.Println(string(out))
}

func main() {
	var p params
	readParams(&p)
	if p.Part != "bill" {
		fail(fmt.Errorf("go has no %q part", p.Part))
	}
	if p.MaxThreads > 0 && os.Getenv("SLUICE_LAB_GO_LIMITED") == "" {
		limited(p)
		return
	}
	if p.MaxThreads > 0 {
		debug.SetMaxThreads(p.MaxThreads)
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		fail(err)
	}
	before := readStatus()
	done := make(chan error, p.Blocked)
	for i := 0; i < p.Blocked; i++ {
		go func() {
			var b [1]byte
			for {
				_, err := syscall.Read(fds[0], b[:])
				if err != syscall.EINTR {
					done <- err
					return
				}
			}
		}()
	}
	deadline := time.Now().Add(60 * time.Second)
	for inRead(fds[0]) < p.Blocked {
		if time.Now().After(deadline) {
			fail(fmt.Errorf("only %d of %d reads blocked after 60 s", inRead(fds[0]), p.Blocked))
		}
		time.Sleep(time.Millisecond)
	}
	after := readStatus()
	if _, err := syscall.Write(fds[1], make([]byte, p.Blocked)); err != nil {
		fail(err)
	}
	for i := 0; i < p.Blocked; i++ {
		if err := <-done; err != nil {
			fail(err)
		}
	}
	out, _ := json.Marshal(map[string]status{"before": before, "after": after})
	fmt.Println(string(out))
}
