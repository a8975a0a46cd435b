// sluice lab: http (seed 000 §5, seed 002 §3, seed 004), the Go twin of
// `sluice serve`: the same routes on net/http, one goroutine per
// connection, the work done right there (Go has no pool: GOMAXPROCS bounds
// how many compute at once, file reads block a thread each).
// os.Args[1]: {"iterations": n, "gzip_bytes": n, "file": path, "cpu_queue": n|null}
// Prints {"event":"listening","port":p,"pool":GOMAXPROCS} once listening on
// 127.0.0.1 (a free port). With cpu_queue set, /login and /gzip admit at
// most GOMAXPROCS + cpu_queue at once and answer 429 beyond, as sluice
// serve does. SIGTERM: graceful shutdown, exit 0.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

type params struct {
	Iterations int    `json:"iterations"`
	GzipBytes  int    `json:"gzip_bytes"`
	File       string `json:"file"`
	CPUQueue   *int   `json:"cpu_queue"`
}

// text is the payload generator of sluice-serve's payload.rs: the same bytes.
func text(n int) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyz     \n"
	out := make([]byte, n)
	x := uint32(1)
	for i := range out {
		x = (x*1103515245 + 12345) & 0x7fffffff
		out[i] = alphabet[(x>>16)&31]
	}
	return out
}

func send(w http.ResponseWriter, status int, typ string, body []byte) {
	w.Header().Set("content-type", typ)
	w.Header().Set("content-length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

func main() {
	var p params
	readParams(&p)
	gzipInput := text(p.GzipBytes)
	pool := runtime.GOMAXPROCS(0)
	// Seed 002's semaphore: a slot per admitted CPU request, never waited for.
	var slots chan struct{}
	if p.CPUQueue != nil {
		slots = make(chan struct{}, pool+*p.CPUQueue)
	}
	admit := func(w http.ResponseWriter, work func() (string, []byte, error)) {
		if slots != nil {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				w.Header().Set("retry-after", "1")
				send(w, 429, "text/plain; charset=utf-8", []byte(fmt.Sprintf(
					"busy: %d Cpu requests admitted (GOMAXPROCS %d + queue %d); retry later\n",
					len(slots), pool, *p.CPUQueue)))
				return
			}
		}
		typ, body, err := work()
		if err != nil {
			send(w, 500, "text/plain", []byte(err.Error()+"\n"))
			return
		}
		send(w, 200, typ, body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		send(w, 404, "text/plain", []byte("no route "+r.URL.Path+"\n"))
	})
	mux.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) {
		send(w, 200, "text/plain; charset=utf-8", []byte("pong\n"))
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		admit(w, func() (string, []byte, error) {
			key := pbkdf2(sha256.New, p.Iterations, 64)
			return "text/plain; charset=utf-8", []byte(hex.EncodeToString(key) + "\n"), nil
		})
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		admit(w, func() (string, []byte, error) {
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			if _, err := z.Write(gzipInput); err != nil {
				return "", nil, err
			}
			if err := z.Close(); err != nil {
				return "", nil, err
			}
			return "application/gzip", b.Bytes(), nil
		})
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		data, err := os.ReadFile(p.File)
		if err != nil {
			send(w, 500, "text/plain", []byte(err.Error()+"\n"))
			return
		}
		send(w, 200, "application/octet-stream", data)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: mux, IdleTimeout: 60 * time.Second, ReadHeaderTimeout: 10 * time.Second}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		close(done)
	}()
	fmt.Printf("{\"event\":\"listening\",\"port\":%d,\"pool\":%d}\n", ln.Addr().(*net.TCPAddr).Port, pool)
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	<-done
}
