package testutil

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Docker: a Docker daemon answers on its socket ($DOCKER_HOST's unix
// socket, else /var/run/docker.sock) and the docker CLI, which tests use
// to make images and containers, is on PATH.
var Docker = Need{"a running Docker daemon and the docker CLI (apt-get install docker.io; start dockerd)", func() bool {
	if _, err := exec.LookPath("docker"); err != nil {
		return false
	}
	return dockerAnswers(dockerSocket())
}}

// dockerSocket is the socket the docker CLI would use.
func dockerSocket() string {
	if h, ok := strings.CutPrefix(os.Getenv("DOCKER_HOST"), "unix://"); ok {
		return h
	}
	return "/var/run/docker.sock"
}

// dockerAnswers reports whether GET /_ping on sock answers 200 OK.
func dockerAnswers(sock string) bool {
	c, err := net.DialTimeout("unix", sock, 2*time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")); err != nil {
		return false
	}
	status, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.Contains(status, " 200 ")
}
