package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/boltstore"
)

var (
	_ RequestStore   = (*boltstore.DB)(nil)
	_ RequestDeleter = (*boltstore.DB)(nil)
)

const (
	bucketType   = "AWS::S3::Bucket"
	logGroupType = "AWS::Logs::LogGroup"
	testKey      = "AKIDCAIRNTEST"
	testSecret   = "cairn-test-secret"
)

// harness is a server on a loopback listener over a real boltstore,
// serving S3 buckets and log groups with memHandlers, and an SDK client.
type harness struct {
	t        testing.TB
	dbPath   string
	db       *boltstore.DB
	srv      *Server
	http     *httptest.Server
	client   *ccapi.Client
	handlers map[string]*memHandler
	logs     *lockedBuffer
	opts     Options
	mu       sync.Mutex // guards srv across restarts
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newHarness starts a server; tune changes the handlers and options
// before it starts.
func newHarness(t testing.TB, tune func(h *harness)) *harness {
	t.Helper()
	return newHarnessAt(t, filepath.Join(t.TempDir(), "cairn.db"), tune)
}

// newHarnessAt is newHarness over the store file at dbPath.
func newHarnessAt(t testing.TB, dbPath string, tune func(h *harness)) *harness {
	t.Helper()
	h := &harness{t: t, dbPath: dbPath, logs: &lockedBuffer{}}
	h.openDB()
	h.handlers = map[string]*memHandler{
		bucketType:   {store: h.db, typeName: bucketType, idProp: "BucketName"},
		logGroupType: {store: h.db, typeName: logGroupType, idProp: "LogGroupName"},
	}
	schemas := map[string][]byte{bucketType: realSchema(t, bucketType), logGroupType: realSchema(t, logGroupType)}
	h.opts = Options{
		Types: func(name string) (*cloudcontrol.ResourceType, error) {
			mh, ok := h.handlers[name]
			if !ok {
				return nil, errors.New("not registered")
			}
			return &cloudcontrol.ResourceType{Name: name, Schema: schemas[name], Handler: mh}, nil
		},
		Logger: slog.New(slog.NewTextHandler(h.logs, nil)),
	}
	if tune != nil {
		tune(h)
	}
	h.startServer()
	h.http = httptest.NewServer(h)
	t.Cleanup(h.close)
	h.client = h.newClient(testKey, testSecret)
	return h
}

// ServeHTTP lets the listener outlive a server restart.
func (h *harness) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.current().ServeHTTP(w, r) }

func (h *harness) openDB() {
	db, err := boltstore.Open(h.dbPath)
	if err != nil {
		h.t.Fatal(err)
	}
	h.db = db
}

func (h *harness) startServer() {
	h.opts.Requests = h.db
	srv, err := New(h.opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.setServer(srv)
}

func (h *harness) current() *Server {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.srv
}

func (h *harness) setServer(s *Server) {
	h.mu.Lock()
	h.srv = s
	h.mu.Unlock()
}

// restart closes the server and its database and opens both again, as
// a process restart would.
func (h *harness) restart() {
	h.current().Close()
	h.db.Close()
	h.openDB()
	for _, mh := range h.handlers {
		mh.store = h.db
	}
	h.startServer()
}

func (h *harness) close() {
	h.http.Close()
	h.current().Close()
	h.db.Close()
}

func (h *harness) newClient(key, secret string) *ccapi.Client {
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider(key, secret, "")}
	return ccapi.NewFromConfig(cfg, func(o *ccapi.Options) {
		o.BaseEndpoint = aws.String(h.http.URL)
		// Tests see every throttle and error as it is.
		o.Retryer = aws.NopRetryer{}
	})
}

// create starts a create and returns its first event.
func (h *harness) create(typeName, desired string) *cctypes.ProgressEvent {
	h.t.Helper()
	out, err := h.client.CreateResource(context.Background(), &ccapi.CreateResourceInput{
		TypeName: aws.String(typeName), DesiredState: aws.String(desired)})
	if err != nil {
		h.t.Fatalf("CreateResource: %v", err)
	}
	return out.ProgressEvent
}

// wait polls a request until it is terminal. The bound only stops a
// broken test from hanging; nothing asserts on time.
func (h *harness) wait(token *string) *cctypes.ProgressEvent {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := h.client.GetResourceRequestStatus(context.Background(),
			&ccapi.GetResourceRequestStatusInput{RequestToken: token})
		if err != nil {
			h.t.Fatalf("GetResourceRequestStatus: %v", err)
		}
		ev := out.ProgressEvent
		if cloudcontrol.Status(ev.OperationStatus).Terminal() {
			return ev
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("request %s still %s", aws.ToString(token), ev.OperationStatus)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (h *harness) mustSucceed(ev *cctypes.ProgressEvent) *cctypes.ProgressEvent {
	h.t.Helper()
	final := h.wait(ev.RequestToken)
	if final.OperationStatus != cctypes.OperationStatusSuccess {
		h.t.Fatalf("request %s: %s %s %s", aws.ToString(ev.RequestToken), final.OperationStatus,
			final.ErrorCode, aws.ToString(final.StatusMessage))
	}
	return final
}
