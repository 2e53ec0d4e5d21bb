// The transport floor of a Go runtime on this machine: a parent calls child processes
// over a socketpair on their fd 3 (as the Go NRI adaptation launches plugins), one
// request and one answer at a time, and reports its own CPU time (getrusage: user and
// system) per round trip. The counterpart of nodeFloor in ../transport-floor.ts; it
// prints "p50 X p90 Y" in microseconds.
//
// Usage: go-floor CHILDREN ROUNDS REQUEST_BYTES ANSWER_BYTES
package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"syscall"
)

func cpuMicros() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return (ru.Utime.Nano() + ru.Stime.Nano()) / 1000
}

func echo(answerBytes int) {
	conn, err := net.FileConn(os.NewFile(3, "nri"))
	if err != nil {
		os.Exit(1)
	}
	buf := make([]byte, 64*1024)
	answer := make([]byte, answerBytes)
	for {
		if _, err := conn.Read(buf); err != nil {
			return
		}
		if _, err := conn.Write(answer); err != nil {
			return
		}
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "go-floor: usage: go-floor CHILDREN ROUNDS REQUEST_BYTES ANSWER_BYTES")
	os.Exit(2)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		usage()
	}
	return n
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "child" {
		echo(atoi(os.Args[2]))
		return
	}
	if len(os.Args) != 5 {
		usage()
	}
	children, rounds, requestBytes, answerBytes := atoi(os.Args[1]), atoi(os.Args[2]), atoi(os.Args[3]), atoi(os.Args[4])
	var conns []net.Conn
	var procs []*exec.Cmd
	for i := 0; i < children; i++ {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			panic(err)
		}
		theirs := os.NewFile(uintptr(fds[1]), "plugin")
		cmd := exec.Command(os.Args[0], "child", strconv.Itoa(answerBytes))
		cmd.ExtraFiles = []*os.File{theirs}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		theirs.Close()
		ours := os.NewFile(uintptr(fds[0]), "runtime")
		conn, err := net.FileConn(ours) // a duplicate: close ours, or the child never sees the end
		if err != nil {
			panic(err)
		}
		ours.Close()
		conns = append(conns, conn)
		procs = append(procs, cmd)
	}
	request := make([]byte, requestBytes)
	buf := make([]byte, 64*1024)
	const warmUp = 300
	perCall := make([]float64, 0, rounds)
	for r := 0; r < warmUp+rounds; r++ {
		before := cpuMicros()
		for _, c := range conns {
			if _, err := c.Write(request); err != nil {
				panic(err)
			}
			if _, err := c.Read(buf); err != nil {
				panic(err)
			}
		}
		if r >= warmUp {
			perCall = append(perCall, float64(cpuMicros()-before)/float64(children))
		}
	}
	for _, c := range conns {
		c.Close()
	}
	for _, p := range procs {
		p.Wait()
	}
	sort.Float64s(perCall)
	q := func(f float64) float64 { return perCall[int(f*float64(len(perCall)))] }
	fmt.Printf("p50 %.1f p90 %.1f\n", q(0.5), q(0.9))
}
