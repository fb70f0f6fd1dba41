package container

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"
)

// apiTimeout bounds one request to an engine.
const apiTimeout = 10 * time.Second

// Sockets returns the engine sockets to try, in order, with getenv
// reading the environment: $DOCKER_HOST when it is a unix:// address,
// Docker's, rootful Podman's, then rootless Podman's under
// $XDG_RUNTIME_DIR.
func Sockets(getenv func(string) string) []string {
	var out []string
	if h := getenv("DOCKER_HOST"); strings.HasPrefix(h, "unix://") {
		out = append(out, strings.TrimPrefix(h, "unix://"))
	}
	out = append(out, "/var/run/docker.sock", "/run/podman/podman.sock")
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		out = append(out, d+"/podman/podman.sock")
	}
	// $DOCKER_HOST may name a default one: ask each once, in the first
	// place it has.
	var once []string
	for _, s := range out {
		if !slices.Contains(once, s) {
			once = append(once, s)
		}
	}
	return once
}

// inspected is the part of GET /containers/{ref}/json that envbisect
// reads (Docker Engine API, ContainerInspectResponse; Podman's compat API
// answers the same shape).
type inspected struct {
	ID    string `json:"Id"`
	Name  string `json:"Name"` // "/web"
	State struct {
		Running bool   `json:"Running"`
		Status  string `json:"Status"`
		Pid     int    `json:"Pid"`
	} `json:"State"`
	Config struct {
		Hostname   string   `json:"Hostname"`
		Env        []string `json:"Env"`
		WorkingDir string   `json:"WorkingDir"`
		User       string   `json:"User"`
	} `json:"Config"`
	HostConfig struct {
		GroupAdd []string `json:"GroupAdd"`
	} `json:"HostConfig"`
}

// Lookup finds the running container ref (a name or an id, or a unique
// prefix of one, as the engine resolves it) through the first engine
// among sockets that knows it.
func Lookup(ctx context.Context, ref string, sockets []string) (*Target, error) {
	if ref == "" {
		return nil, fmt.Errorf("%w: give a container name or id", ErrNotFound)
	}
	var asked, absent []string
	var denied error
	for _, sock := range sockets {
		if _, err := os.Stat(sock); err != nil {
			if errors.Is(err, fs.ErrPermission) {
				denied = permissionError(sock, err)
			}
			absent = append(absent, sock)
			continue
		}
		c, err := inspect(ctx, sock, ref)
		switch {
		case errors.Is(err, ErrNotFound):
			asked = append(asked, sock)
			continue
		case errors.Is(err, fs.ErrPermission):
			denied = permissionError(sock, err)
			continue
		case errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist):
			absent = append(absent, sock+" (not answering)")
			continue
		case err != nil:
			return nil, fmt.Errorf("container %s: engine at %s: %w", ref, sock, err)
		}
		return c.target(ref, sock)
	}
	switch {
	case len(asked) > 0:
		return nil, fmt.Errorf("%w: %q: the engine at %s knows no container of that name or id (see 'docker ps' or 'podman ps')",
			ErrNotFound, ref, strings.Join(asked, " and "))
	case denied != nil:
		return nil, denied
	}
	return nil, fmt.Errorf("%w (tried %s): start Docker (dockerd) or Podman's API service (podman system service), "+
		"or set DOCKER_HOST=unix:///path/to/engine.sock", ErrNoEngine, strings.Join(absent, ", "))
}

// permissionError says what to do about a socket we may not use.
func permissionError(sock string, err error) error {
	return fmt.Errorf("%w on %s (%v): run envbisect as root, which joining a container needs anyway", ErrPermission, sock, err)
}

// inspect asks the engine at sock about ref.
func inspect(ctx context.Context, sock, ref string) (*inspected, error) {
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	// The host part is ignored: the dialer always reaches sock.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://engine/containers/"+url.PathEscape(ref)+"/json", nil)
	if err != nil {
		return nil, err
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("read the answer: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET /containers/%s/json: %s: %s", ref, resp.Status, apiMessage(body))
	}
	var c inspected
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("GET /containers/%s/json: %w", ref, err)
	}
	return &c, nil
}

// apiMessage returns the message of an engine's error answer
// ({"message": "..."}), or the answer itself.
func apiMessage(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		return e.Message
	}
	return strings.TrimSpace(string(body))
}

// target makes the Target of a running container.
func (c *inspected) target(ref, sock string) (*Target, error) {
	name := strings.TrimPrefix(c.Name, "/")
	if !c.State.Running || c.State.Pid <= 0 {
		status := ""
		if c.State.Status != "" {
			status = fmt.Sprintf(" (status %q)", c.State.Status)
		}
		return nil, fmt.Errorf("%w: container %s is not running%s: start it first (docker start %s)", ErrNotRunning, name, status, name)
	}
	t := &Target{PID: c.State.Pid, Name: name, ID: c.ID, Dir: c.Config.WorkingDir, GroupAdd: c.HostConfig.GroupAdd, configEnv: c.Config.Env}
	if t.Dir == "" {
		t.Dir = "/"
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", t.PID)); err != nil {
		return nil, fmt.Errorf("container %s: its process %d (as the engine at %s numbers it) is not visible here: "+
			"run envbisect in the host's pid namespace", name, t.PID, sock)
	}
	t.hostname = c.Config.Hostname
	if err := t.SetUser(c.Config.User); err != nil {
		return nil, fmt.Errorf("container %s: its configured user: %w", name, err)
	}
	if err := t.findCgroup(); err != nil {
		return nil, err
	}
	return t, nil
}
