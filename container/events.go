package container

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
)

// Event is a container's start or death as the engine reports it
// (GET /events).
type Event struct {
	Action string // "start" or "die"
	ID     string
	Name   string // without the leading slash
}

// Events streams the start and die events of the containers that carry
// label (KEY=VALUE, or KEY for any value; "" for every container) from
// the engine at sock, from now on, until ctx ends or the engine hangs up:
// then the channel closes and wait returns why.
func Events(ctx context.Context, sock, label string) (events <-chan Event, wait func() error, err error) {
	filters := map[string][]string{"type": {"container"}, "event": {"start", "die"}}
	if label != "" {
		filters["label"] = []string{label}
	}
	f, err := json.Marshal(filters)
	if err != nil {
		return nil, nil, err
	}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		DisableKeepAlives: true,
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://engine/events?filters="+url.QueryEscape(string(f)), nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("engine at %s: GET /events: %w", sock, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("engine at %s: GET /events: %s", sock, resp.Status)
	}
	ch := make(chan Event)
	done := make(chan error, 1)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		dec := json.NewDecoder(bufio.NewReader(resp.Body))
		for {
			var m struct {
				Type   string `json:"Type"`
				Action string `json:"Action"`
				Actor  struct {
					ID         string            `json:"ID"`
					Attributes map[string]string `json:"Attributes"`
				} `json:"Actor"`
			}
			if err := dec.Decode(&m); err != nil {
				if ctx.Err() != nil {
					err = nil
				}
				done <- err
				return
			}
			if m.Type != "container" || m.Action != "start" && m.Action != "die" {
				continue
			}
			select {
			case ch <- Event{Action: m.Action, ID: m.Actor.ID, Name: m.Actor.Attributes["name"]}:
			case <-ctx.Done():
				done <- nil
				return
			}
		}
	}()
	return ch, func() error { return <-done }, nil
}
