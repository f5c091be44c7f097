package distributed

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Credentials is what a worker needs to reach a run: the server's address, the run, a user and
// password, and (when the server speaks TLS) the certificate to trust. The coordinator writes
// them to a file (JSON, mode 0600) for its workers; the same file serves "arbiter workers".
type Credentials struct {
	URL      string `json:"url"`
	Run      string `json:"run"`
	User     string `json:"user,omitempty"`
	Password string `json:"password,omitempty"`
	// Seed, if set, is the user's NKey seed (an ed25519 private key, "SU..."): the server knows
	// only its public key. A pool's workers and submitters have one each.
	Seed string `json:"nkey_seed,omitempty"`
	// CA is the PEM certificate the server presents, trusted instead of the system's roots; empty
	// when the server does not speak TLS, or has a certificate the system trusts.
	CA string `json:"ca,omitempty"`
	// Inbox, if set, is the prefix of the holder's reply subjects (nats.CustomInboxPrefix): a
	// pool's users may subscribe to their own inboxes only, so that none reads the replies
	// the server sends another.
	Inbox string `json:"inbox,omitempty"`
}

// ReadRunCredentials reads a credentials file for one run: a file that names no run (a pool's)
// is an error. ReadCredentials reads either.
func ReadRunCredentials(path string) (*Credentials, error) {
	c, err := ReadCredentials(path)
	if err != nil {
		return nil, err
	}
	if c.Run == "" {
		return nil, fmt.Errorf("distributed: credentials %s name no run", path)
	}
	return c, nil
}

// ReadCredentials reads a credentials file that may name no run: a pool's, whose holder is
// given its runs by the pool's server. ReadRunCredentials requires one.
func ReadCredentials(path string) (*Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	var c Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("distributed: credentials %s: %w", path, err)
	}
	return &c, nil
}

// Save writes the credentials to path, readable by its owner only.
func (c *Credentials) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("distributed: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("distributed: %w", err)
	}
	return nil
}

// options are the connection options the credentials give, the URL aside.
func (c *Credentials) options() ([]nats.Option, error) {
	var opts []nats.Option
	if c.User != "" && c.Seed == "" {
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	}
	if c.Seed != "" {
		kp, err := nkeys.FromSeed([]byte(c.Seed))
		if err != nil {
			return nil, fmt.Errorf("distributed: the credentials' NKey seed: %w", err)
		}
		pub, err := kp.PublicKey()
		if err != nil {
			return nil, fmt.Errorf("distributed: the credentials' NKey seed: %w", err)
		}
		opts = append(opts, nats.Nkey(pub, kp.Sign))
	}
	if c.CA != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(c.CA)) {
			return nil, errors.New("distributed: the credentials' certificate is not PEM")
		}
		opts = append(opts, nats.Secure(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	}
	if c.Inbox != "" {
		opts = append(opts, nats.CustomInboxPrefix(c.Inbox))
	}
	return opts, nil
}

// secret returns n random bytes as hex: passwords that no one types.
func secret(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("distributed: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// selfSignedCert returns (creating it in dir on first use, reusing it after) a certificate and
// key for the server, valid for every address of this machine, its host name and localhost.
// Workers trust it because the credentials file carries it: no certificate authority is needed.
func selfSignedCert(dir string) (tls.Certificate, string, error) {
	certPath, keyPath := filepath.Join(dir, "server-cert.pem"), filepath.Join(dir, "server-key.pem")
	if cert, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil {
		pemBytes, err := os.ReadFile(certPath)
		return cert, string(pemBytes), err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "hive arbiter coordinator"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(5, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
	}
	if host, err := os.Hostname(); err == nil {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipnet, ok := a.(*net.IPNet); ok {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ipnet.IP)
			}
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	if err := os.WriteFile(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, "", err
	}
	if err := os.WriteFile(certPath, certPEM, 0o644); err != nil {
		return tls.Certificate{}, "", err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	return cert, string(certPEM), err
}

// isLoopback reports whether a listening host is reachable from this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func tlsServerConfig(cert tls.Certificate) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
}

// Dial connects to the server the credentials name. The connection reconnects by itself for as
// long as it lives: a coordinator that restarts finds its workers again.
func Dial(c *Credentials, name string, opts ...nats.Option) (*nats.Conn, error) {
	copts, err := c.options()
	if err != nil {
		return nil, err
	}
	all := append(copts, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond))
	nc, err := nats.Connect(c.URL, append(all, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("distributed: connecting to %s: %w", c.URL, err)
	}
	return nc, nil
}
