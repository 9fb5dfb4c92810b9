package emulator

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

func TestCreateValidation(t *testing.T) {
	tests := map[string]struct {
		reason   string
		typeName string
		desired  string
		want     string
	}{
		"enum": {
			reason:   "a nested value outside its enum names the path and keyword",
			typeName: "AWS::S3::Bucket",
			desired:  `{"VersioningConfiguration": {"Status": "Sometimes"}}`,
			want:     "Model validation failed (#/VersioningConfiguration/Status: failed validation constraint for keyword [enum])",
		},
		"required top level": {
			reason:   "top-level required is enforced",
			typeName: "AWS::IAM::Role",
			desired:  `{"RoleName": "r"}`,
			want:     "Model validation failed (#: required key [AssumeRolePolicyDocument] not found)",
		},
		"required nested": {
			reason:   "a nested object's required keys are enforced too",
			typeName: "AWS::S3::Bucket",
			desired:  `{"Tags": [{"Key": "k"}]}`,
			want:     "Model validation failed (#/Tags/0: required key [Value] not found)",
		},
		"extraneous": {
			reason:   "additionalProperties false refuses unknown keys",
			typeName: "AWS::Logs::LogGroup",
			desired:  `{"Bogus": 1}`,
			want:     "Model validation failed (#: extraneous key [Bogus] is not permitted)",
		},
		"type": {
			reason:   "a wrong type says what was expected and found",
			typeName: "AWS::Logs::LogGroup",
			desired:  `{"Tags": {"Key": "k"}}`,
			want:     "Model validation failed (#/Tags: expected type: JSONArray, found: JSONObject)",
		},
		"max length and several lines": {
			reason:   "each failed constraint is one line, sorted",
			typeName: "AWS::Logs::LogGroup",
			desired:  `{"Tags": [{"Key": ""}], "RetentionInDays": 2}`,
			want: "Model validation failed (#/RetentionInDays: failed validation constraint for keyword [enum]\n" +
				"#/Tags/0/Key: failed validation constraint for keyword [minLength]\n" +
				"#/Tags/0: required key [Value] not found)",
		},
		"pattern": {
			reason:   "patterns are ECMAScript regular expressions",
			typeName: "AWS::WAFv2::RegexPatternSet",
			desired:  `{"Name": "no spaces allowed", "Scope": "REGIONAL", "RegularExpressionList": []}`,
			want:     "Model validation failed (#/Name: failed validation constraint for keyword [pattern])",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, store := newTestHandler(t, tc.typeName)
			ev := h.Create(context.Background(), request(tc.typeName, "t", model(t, tc.desired)))
			if ev.Status != cloudcontrol.StatusFailed || ev.ErrorCode != cloudcontrol.CodeInvalidRequest {
				t.Fatalf("create = %s %s %s, want FAILED InvalidRequest (%s)", ev.Status, ev.ErrorCode, ev.Message, tc.reason)
			}
			if diff := cmp.Diff(tc.want, ev.Message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if ids, _, _ := store.List(tc.typeName, "", 10); len(ids) != 0 {
				t.Errorf("a refused create stored %v", ids)
			}
		})
	}
}

func TestUpdateValidation(t *testing.T) {
	h, _ := newTestHandler(t, "AWS::Logs::LogGroup")
	ctx := context.Background()
	mustSucceed(t, "create", h.Create(ctx, request("AWS::Logs::LogGroup", "t", model(t, `{"LogGroupName": "g"}`))))
	ev := h.Update(ctx, &cloudcontrol.Request{
		TypeName: "AWS::Logs::LogGroup", Identifier: "g",
		Desired: model(t, `{"LogGroupName": "g", "LogGroupClass": "WARM"}`),
	})
	want := "Model validation failed (#/LogGroupClass: failed validation constraint for keyword [enum])"
	if ev.ErrorCode != cloudcontrol.CodeInvalidRequest || ev.Message != want {
		t.Errorf("update = %s %q, want InvalidRequest %q", ev.ErrorCode, ev.Message, want)
	}
}

func TestReadOnlyInDesiredIgnored(t *testing.T) {
	h, _ := newTestHandler(t, "AWS::S3::Bucket")
	ev := h.Create(context.Background(), request("AWS::S3::Bucket", "t",
		model(t, `{"BucketName": "b", "Arn": "arn:aws:s3:::other", "DomainName": 7}`)))
	mustSucceed(t, "create", ev)
	if got := ev.Model["Arn"]; got != "arn:aws:s3:::b" {
		t.Errorf("Arn = %v, want the generated arn:aws:s3:::b", got)
	}
}

func TestDefaults(t *testing.T) {
	tests := map[string]struct {
		reason   string
		typeName string
		desired  string
		path     propPath
		want     any
	}{
		"top level": {
			reason: "an absent optional property gets its default", typeName: "AWS::Logs::LogGroup",
			desired: `{}`, path: propPath{"LogGroupClass"}, want: "STANDARD",
		},
		"given wins": {
			reason: "a given value is kept", typeName: "AWS::Logs::LogGroup",
			desired: `{"LogGroupClass": "INFREQUENT_ACCESS"}`, path: propPath{"LogGroupClass"}, want: "INFREQUENT_ACCESS",
		},
		"nested through ref": {
			reason: "defaults inside a present object are filled through $ref", typeName: "AWS::S3::Bucket",
			desired: `{"NotificationConfiguration": {"EventBridgeConfiguration": {}}}`,
			path:    propPath{"NotificationConfiguration", "EventBridgeConfiguration", "EventBridgeEnabled"}, want: true,
		},
		"required with default": {
			reason: "a required property with a default is filled before validation", typeName: "AWS::S3::Bucket",
			desired: `{"VersioningConfiguration": {}}`, path: propPath{"VersioningConfiguration", "Status"}, want: "Suspended",
		},
		"IAM path": {
			reason: "IAM's default path", typeName: "AWS::IAM::Role",
			desired: `{"AssumeRolePolicyDocument": {}}`, path: propPath{"Path"}, want: "/",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _ := newTestHandler(t, tc.typeName)
			ev := h.Create(context.Background(), request(tc.typeName, "t", model(t, tc.desired)))
			mustSucceed(t, "create", ev)
			got, _ := getPath(ev.Model, tc.path)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s (%s)", tc.path, diff, tc.reason)
			}
		})
	}
}

func TestWriteOnly(t *testing.T) {
	ctx := context.Background()
	h, store := newTestHandler(t, "AWS::S3::Bucket")
	ev := h.Create(ctx, request("AWS::S3::Bucket", "t", model(t, `{"BucketName": "b", "AccessControl": "Private"}`)))
	mustSucceed(t, "create", ev)
	if _, ok := ev.Model["AccessControl"]; ok {
		t.Error("create answered the write-only AccessControl")
	}
	// The endpoint's current model lacks the write-only value; an update
	// built from it must not drop the stored one.
	mustSucceed(t, "update", h.Update(ctx, &cloudcontrol.Request{
		TypeName: "AWS::S3::Bucket", Identifier: "b", Desired: ev.Model, Previous: ev.Model,
	}))
	raw, _ := store.Get("AWS::S3::Bucket", "b")
	stored, _ := decodeObject(raw)
	if stored["AccessControl"] != "Private" {
		t.Errorf("stored AccessControl = %v after update, want Private", stored["AccessControl"])
	}
}

func TestMultiPartIdentifier(t *testing.T) {
	const typeName = "AWS::WAFv2::RegexPatternSet"
	ctx := context.Background()
	h, _ := newTestHandler(t, typeName)
	ev := h.Create(ctx, request(typeName, "t", model(t, `{"Name": "set", "Scope": "REGIONAL", "RegularExpressionList": ["^a"]}`)))
	mustSucceed(t, "create", ev)
	id := fmt.Sprintf("set|%s|REGIONAL", ev.Model["Id"])
	if !regexpMatch(`^set\|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\|REGIONAL$`, id) {
		t.Errorf("identifier %q is not name|uuid|scope", id)
	}
	mustSucceed(t, "read", h.Read(ctx, &cloudcontrol.Request{TypeName: typeName, Identifier: id}))
}

func TestUniqueness(t *testing.T) {
	ctx := context.Background()
	h, _ := newTestHandler(t, "AWS::S3::Bucket")
	mustSucceed(t, "first", h.Create(ctx, request("AWS::S3::Bucket", "one", model(t, `{"BucketName": "b"}`))))
	ev := h.Create(ctx, request("AWS::S3::Bucket", "two", model(t, `{"BucketName": "b"}`)))
	if ev.Status != cloudcontrol.StatusFailed || ev.ErrorCode != cloudcontrol.CodeAlreadyExists {
		t.Fatalf("second create = %s %s, want FAILED AlreadyExists", ev.Status, ev.ErrorCode)
	}
	// The refused operation must not later pass for the winner's.
	again := h.Create(ctx, request("AWS::S3::Bucket", "two", model(t, `{"BucketName": "b"}`)))
	if again.ErrorCode != cloudcontrol.CodeAlreadyExists {
		t.Errorf("re-run of the refused create = %s %s, want AlreadyExists", again.Status, again.ErrorCode)
	}
}

func TestConcurrentCreates(t *testing.T) {
	ctx := context.Background()
	h, _ := newTestHandler(t, "AWS::Logs::LogGroup")
	const n = 16
	events := make([]*cloudcontrol.ProgressEvent, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			events[i] = h.Create(ctx, request("AWS::Logs::LogGroup", fmt.Sprint("token-", i), model(t, `{"LogGroupName": "same"}`)))
		})
	}
	wg.Wait()
	won := 0
	for _, ev := range events {
		switch {
		case ev.Status == cloudcontrol.StatusSuccess:
			won++
		case ev.ErrorCode != cloudcontrol.CodeAlreadyExists:
			t.Errorf("create = %s %s %s", ev.Status, ev.ErrorCode, ev.Message)
		}
	}
	if won != 1 {
		t.Errorf("%d creates of one name succeeded, want 1", won)
	}
}

func TestIdempotentRerun(t *testing.T) {
	tests := map[string]struct {
		reason   string
		typeName string
		desired  string
		// crash drops the model but keeps the token record, as a crash
		// between the two writes would.
		crash bool
	}{
		"generated name":     {reason: "the same token draws the same name", typeName: "AWS::S3::Bucket", desired: `{}`},
		"given name":         {reason: "a re-run is not a rival", typeName: "AWS::S3::Bucket", desired: `{"BucketName": "b"}`},
		"read-only id":       {reason: "the same token draws the same vpc id", typeName: "AWS::EC2::VPC", desired: `{"CidrBlock": "10.0.0.0/16"}`},
		"crash before model": {reason: "the re-run inserts the same model", typeName: "AWS::EC2::VPC", desired: `{}`, crash: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			h, store := newTestHandler(t, tc.typeName)
			first := h.Create(ctx, request(tc.typeName, "tok", model(t, tc.desired)))
			mustSucceed(t, "first", first)
			if tc.crash {
				ids, _, _ := store.List(tc.typeName, "", 10)
				if err := store.Delete(tc.typeName, ids[0]); err != nil {
					t.Fatal(err)
				}
			}
			second := h.Create(ctx, request(tc.typeName, "tok", model(t, tc.desired)))
			mustSucceed(t, "re-run", second)
			if diff := cmp.Diff(first.Model, second.Model); diff != "" {
				t.Errorf("re-run model differs (-first +second):\n%s (%s)", diff, tc.reason)
			}
			if ids, _, _ := store.List(tc.typeName, "", 10); len(ids) != 1 {
				t.Errorf("store holds %v, want one resource", ids)
			}
			other := h.Create(ctx, request(tc.typeName, "other", model(t, `{}`)))
			if other.Status == cloudcontrol.StatusSuccess && cmp.Equal(other.Model, first.Model) {
				t.Error("another token drew the same resource")
			}
		})
	}
}

func TestLatency(t *testing.T) {
	ctx := context.Background()
	const delay = 3 * time.Second
	h, store := newTestHandler(t, "AWS::Logs::LogGroup", WithLatency(delay))
	steps := map[string]func(*cloudcontrol.Request) *cloudcontrol.ProgressEvent{
		"create": func(r *cloudcontrol.Request) *cloudcontrol.ProgressEvent { return h.Create(ctx, r) },
		"update": func(r *cloudcontrol.Request) *cloudcontrol.ProgressEvent { return h.Update(ctx, r) },
		"delete": func(r *cloudcontrol.Request) *cloudcontrol.ProgressEvent { return h.Delete(ctx, r) },
	}
	req := request("AWS::Logs::LogGroup", "t", model(t, `{"LogGroupName": "g"}`))
	req.Identifier = "g"
	for _, op := range []string{"create", "update", "delete"} {
		req.CallbackContext, req.Step = nil, 1
		first := steps[op](req)
		if first.Status != cloudcontrol.StatusInProgress || first.CallbackDelay != delay {
			t.Fatalf("%s step 1 = %s after %v, want IN_PROGRESS after %v", op, first.Status, first.CallbackDelay, delay)
		}
		before, _ := store.Get("AWS::Logs::LogGroup", "g")
		req.CallbackContext, req.Step = first.CallbackContext, 2
		mustSucceed(t, op+" step 2", steps[op](req))
		after, _ := store.Get("AWS::Logs::LogGroup", "g")
		if op == "create" && (before != nil || after == nil) {
			t.Errorf("create stored %q before its last step, %q after", before, after)
		}
		if op == "delete" && (before == nil || after != nil) {
			t.Errorf("delete removed before its last step (%q) or not after (%q)", before, after)
		}
	}
}

func TestListPages(t *testing.T) {
	ctx := context.Background()
	h, _ := newTestHandler(t, "AWS::Logs::LogGroup")
	var want []string
	for i := range 5 {
		name := fmt.Sprintf("g%d", i)
		want = append(want, name)
		mustSucceed(t, "create", h.Create(ctx, request("AWS::Logs::LogGroup", name, model(t, `{"LogGroupName": "`+name+`"}`))))
	}
	var got []string
	req := &cloudcontrol.Request{TypeName: "AWS::Logs::LogGroup", MaxResults: 2}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("list never ends")
		}
		ev := h.List(ctx, req)
		mustSucceed(t, "list", ev)
		if len(ev.Models) > 2 {
			t.Errorf("page of %d models, want at most 2", len(ev.Models))
		}
		for _, m := range ev.Models {
			got = append(got, m["LogGroupName"].(string))
		}
		if ev.NextToken == "" {
			break
		}
		req.NextToken = ev.NextToken
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listed names (-want +got):\n%s", diff)
	}
	// Tokens it never issued, including ones that decode, are refused
	// rather than read as a place past the end.
	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, token := range []string{"!!", b64("g1"), b64("zzz"), b64("AWS::S3::Bucket\x00g1"), b64("AWS::Logs::LogGroup\x00")} {
		bad := h.List(ctx, &cloudcontrol.Request{TypeName: "AWS::Logs::LogGroup", NextToken: token})
		if bad.ErrorCode != cloudcontrol.CodeInvalidRequest {
			t.Errorf("list with token %q = %s %s, want InvalidRequest", token, bad.Status, bad.ErrorCode)
		}
	}
}

func TestPartitions(t *testing.T) {
	tests := map[string]struct {
		region string
		want   string
	}{
		"china":    {region: "cn-north-1", want: "arn:aws-cn:logs:cn-north-1:123456789012:log-group:g:*"},
		"govcloud": {region: "us-gov-west-1", want: "arn:aws-us-gov:logs:us-gov-west-1:123456789012:log-group:g:*"},
		"standard": {region: "eu-west-1", want: "arn:aws:logs:eu-west-1:123456789012:log-group:g:*"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _ := newTestHandler(t, "AWS::Logs::LogGroup")
			req := request("AWS::Logs::LogGroup", "t", model(t, `{"LogGroupName": "g"}`))
			req.Region = tc.region
			ev := h.Create(context.Background(), req)
			mustSucceed(t, "create", ev)
			if ev.Model["Arn"] != tc.want {
				t.Errorf("Arn = %v, want %s", ev.Model["Arn"], tc.want)
			}
		})
	}
}

// brokenStore fails the named method with errBroken.
type brokenStore struct {
	*memStore
	method string
}

var errBroken = errors.New("disk on fire")

func (s brokenStore) fail(method string) error {
	if s.method == method {
		return errBroken
	}
	return nil
}

func (s brokenStore) Get(typeName, id string) ([]byte, error) {
	if err := s.fail("Get"); err != nil {
		return nil, err
	}
	return s.memStore.Get(typeName, id)
}

func (s brokenStore) Insert(typeName, id string, model []byte) error {
	if err := s.fail("Insert"); err != nil {
		return err
	}
	return s.memStore.Insert(typeName, id, model)
}

func (s brokenStore) Put(typeName, id string, model []byte) error {
	if err := s.fail("Put"); err != nil {
		return err
	}
	return s.memStore.Put(typeName, id, model)
}

func (s brokenStore) List(typeName, after string, limit int) ([]string, bool, error) {
	if err := s.fail("List"); err != nil {
		return nil, false, err
	}
	return s.memStore.List(typeName, after, limit)
}

func TestStoreFailures(t *testing.T) {
	const typeName = "AWS::Logs::LogGroup"
	tests := map[string]struct {
		method string
		op     func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent
	}{
		"create insert": {method: "Insert", op: func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent {
			return h.Create(context.Background(), request(typeName, "t2", map[string]any{"LogGroupName": "other"}))
		}},
		"create token read": {method: "Get", op: func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent {
			return h.Create(context.Background(), request(typeName, "t2", map[string]any{"LogGroupName": "other"}))
		}},
		"read": {method: "Get", op: func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent {
			return h.Read(context.Background(), &cloudcontrol.Request{TypeName: typeName, Identifier: "g"})
		}},
		"update": {method: "Put", op: func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent {
			return h.Update(context.Background(), &cloudcontrol.Request{TypeName: typeName, Identifier: "g",
				Desired: map[string]any{"LogGroupName": "g"}})
		}},
		"list": {method: "List", op: func(h cloudcontrol.Handler) *cloudcontrol.ProgressEvent {
			return h.List(context.Background(), &cloudcontrol.Request{TypeName: typeName})
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			store := brokenStore{memStore: newMemStore()}
			h, err := New(typeName, mustRead(t, schemaFile(typeName)), store)
			if err != nil {
				t.Fatal(err)
			}
			mustSucceed(t, "create", h.Create(context.Background(), request(typeName, "t", map[string]any{"LogGroupName": "g"})))
			store.method = tc.method
			h, _ = New(typeName, mustRead(t, schemaFile(typeName)), store)
			ev := tc.op(h)
			if ev.Status != cloudcontrol.StatusFailed || ev.ErrorCode == cloudcontrol.CodeNotFound ||
				!strings.Contains(ev.Message, errBroken.Error()) {
				t.Errorf("= %s %s %q, want FAILED naming the store's error", ev.Status, ev.ErrorCode, ev.Message)
			}
		})
	}
}
