// setter: a minimal NRI plugin for the differential checks. None of the NRI sample
// plugins sets container resources, so two of these make the conflicts on a plain
// (unkeyed) resource field that the samples cannot: its drop-in configuration (YAML)
// says what it sets on every container it is asked to create.
//
//	memoryLimit: 268435456   # linux.resources.memory.limit
//	cpuShares: 512           # linux.resources.cpu.shares
//	env: {NAME: value}       # environment variables
//
// Built against the Go reference's GOPATH (see docs/go-reference.md); not part of npm test.
package main

import (
	"context"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
)

type config struct {
	MemoryLimit int64             `json:"memoryLimit"`
	CPUShares   uint64            `json:"cpuShares"`
	Env         map[string]string `json:"env"`
}

type plugin struct {
	cfg config
}

func (p *plugin) Configure(_ context.Context, cfg, _, _ string) (stub.EventMask, error) {
	if err := yaml.Unmarshal([]byte(cfg), &p.cfg); err != nil {
		return 0, fmt.Errorf("failed to parse configuration: %w", err)
	}
	return api.MustParseEventMask("CreateContainer"), nil
}

func (p *plugin) CreateContainer(_ context.Context, _ *api.PodSandbox, _ *api.Container) (*api.ContainerAdjustment, []*api.ContainerUpdate, error) {
	adjust := &api.ContainerAdjustment{}
	if p.cfg.MemoryLimit != 0 {
		adjust.SetLinuxMemoryLimit(p.cfg.MemoryLimit)
	}
	if p.cfg.CPUShares != 0 {
		adjust.SetLinuxCPUShares(p.cfg.CPUShares)
	}
	for k, v := range p.cfg.Env {
		adjust.AddEnv(k, v)
	}
	return adjust, nil, nil
}

func main() {
	p := &plugin{}
	s, err := stub.New(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "failed to create plugin stub: %v\n", err)
		os.Exit(1)
	}
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "plugin exited with error: %v\n", err)
		os.Exit(1)
	}
}
