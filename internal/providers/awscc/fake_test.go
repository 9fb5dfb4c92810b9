package awscc

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
)

// fakeCloudControl is an in-memory Cloud Control for the runtime's unit
// tests: resources by type and identifier, requests that succeed on their
// first poll unless a hook says otherwise. The end-to-end tests use the
// real endpoint.
type fakeCloudControl struct {
	mu        sync.Mutex
	resources map[string]map[string]map[string]any // type, identifier, properties
	requests  map[string]*cctypes.ProgressEvent
	next      int
	calls     []string
	patches   []string
	// idProperty names the property holding the identifier the fake
	// invents on create; readOnly adds server-chosen properties.
	idProperty string
	readOnly   func(id string) map[string]any
	// failCreate makes a create fail after its identifier is known.
	failCreate bool
	// hang keeps requests IN_PROGRESS until cancelled.
	hang bool
	// pollErr, when set, answers every GetResourceRequestStatus and
	// CancelResourceRequest: the API is out of reach.
	pollErr error
	// anonymous leaves a create's identifier out of its events until it
	// succeeds, as handlers that name the resource late do.
	anonymous bool
}

var _ api = (*fakeCloudControl)(nil)

func newFake() *fakeCloudControl {
	return &fakeCloudControl{resources: map[string]map[string]map[string]any{}, requests: map[string]*cctypes.ProgressEvent{}, idProperty: "Id"}
}

func (f *fakeCloudControl) record(call string) { f.calls = append(f.calls, call) }

func (f *fakeCloudControl) start(op cctypes.Operation, typeName, id string) *cctypes.ProgressEvent {
	f.next++
	ev := &cctypes.ProgressEvent{
		Operation: op, OperationStatus: cctypes.OperationStatusInProgress, TypeName: &typeName,
		RequestToken: aws.String(fmt.Sprintf("req-%d", f.next)), Identifier: aws.String(id),
	}
	f.requests[*ev.RequestToken] = ev
	cp := *ev
	return &cp
}

func (f *fakeCloudControl) CreateResource(_ context.Context, in *cloudcontrol.CreateResourceInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.CreateResourceOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("CreateResource")
	var props map[string]any
	if err := json.Unmarshal([]byte(*in.DesiredState), &props); err != nil {
		return nil, &cctypes.InvalidRequestException{Message: aws.String(err.Error())}
	}
	id := fmt.Sprintf("r-%d", f.next+1)
	props[f.idProperty] = id
	if f.readOnly != nil {
		for k, v := range f.readOnly(id) {
			props[k] = v
		}
	}
	if f.resources[*in.TypeName] == nil {
		f.resources[*in.TypeName] = map[string]map[string]any{}
	}
	f.resources[*in.TypeName][id] = props
	ev := f.start(cctypes.OperationCreate, *in.TypeName, id)
	if f.anonymous {
		ev.Identifier = nil
	}
	if f.failCreate {
		f.requests[*ev.RequestToken].OperationStatus = cctypes.OperationStatusFailed
		f.requests[*ev.RequestToken].ErrorCode = cctypes.HandlerErrorCodeNotStabilized
		f.requests[*ev.RequestToken].StatusMessage = aws.String("it never stabilized")
	}
	return &cloudcontrol.CreateResourceOutput{ProgressEvent: ev}, nil
}

func (f *fakeCloudControl) GetResource(_ context.Context, in *cloudcontrol.GetResourceInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("GetResource")
	props, ok := f.resources[*in.TypeName][*in.Identifier]
	if !ok {
		return nil, &cctypes.ResourceNotFoundException{Message: aws.String(*in.Identifier + " not found")}
	}
	return &cloudcontrol.GetResourceOutput{TypeName: in.TypeName, ResourceDescription: &cctypes.ResourceDescription{
		Identifier: in.Identifier, Properties: aws.String(jsonText(props))}}, nil
}

func (f *fakeCloudControl) UpdateResource(_ context.Context, in *cloudcontrol.UpdateResourceInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.UpdateResourceOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("UpdateResource")
	f.patches = append(f.patches, *in.PatchDocument)
	props, ok := f.resources[*in.TypeName][*in.Identifier]
	if !ok {
		return nil, &cctypes.ResourceNotFoundException{Message: aws.String(*in.Identifier + " not found")}
	}
	var ops []struct {
		Op, Path string
		Value    any
	}
	if err := json.Unmarshal([]byte(*in.PatchDocument), &ops); err != nil {
		return nil, &cctypes.InvalidRequestException{Message: aws.String(err.Error())}
	}
	for _, op := range ops {
		// Top-level operations are all the tests send.
		name := strings.TrimPrefix(op.Path, "/")
		if op.Op == "remove" {
			delete(props, name)
		} else {
			props[name] = op.Value
		}
	}
	return &cloudcontrol.UpdateResourceOutput{ProgressEvent: f.start(cctypes.OperationUpdate, *in.TypeName, *in.Identifier)}, nil
}

func (f *fakeCloudControl) DeleteResource(_ context.Context, in *cloudcontrol.DeleteResourceInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.DeleteResourceOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("DeleteResource")
	ev := f.start(cctypes.OperationDelete, *in.TypeName, *in.Identifier)
	if _, ok := f.resources[*in.TypeName][*in.Identifier]; !ok {
		f.requests[*ev.RequestToken].OperationStatus = cctypes.OperationStatusFailed
		f.requests[*ev.RequestToken].ErrorCode = cctypes.HandlerErrorCodeNotFound
	}
	delete(f.resources[*in.TypeName], *in.Identifier)
	return &cloudcontrol.DeleteResourceOutput{ProgressEvent: ev}, nil
}

func (f *fakeCloudControl) ListResources(_ context.Context, in *cloudcontrol.ListResourcesInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.ListResourcesOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("ListResources")
	// One identifier a page, so that paging is exercised.
	var ids []string
	for id := range f.resources[*in.TypeName] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	start := 0
	if in.NextToken != nil {
		_, _ = fmt.Sscanf(*in.NextToken, "%d", &start)
	}
	out := &cloudcontrol.ListResourcesOutput{TypeName: in.TypeName}
	if start < len(ids) {
		out.ResourceDescriptions = []cctypes.ResourceDescription{{Identifier: aws.String(ids[start])}}
		if start+1 < len(ids) {
			out.NextToken = aws.String(fmt.Sprint(start + 1))
		}
	}
	return out, nil
}

func (f *fakeCloudControl) GetResourceRequestStatus(_ context.Context, in *cloudcontrol.GetResourceRequestStatusInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceRequestStatusOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("GetResourceRequestStatus")
	if f.pollErr != nil {
		return nil, f.pollErr
	}
	ev, ok := f.requests[*in.RequestToken]
	if !ok {
		return nil, &cctypes.RequestTokenNotFoundException{Message: in.RequestToken}
	}
	if ev.OperationStatus == cctypes.OperationStatusInProgress && !f.hang {
		ev.OperationStatus = cctypes.OperationStatusSuccess
	}
	cp := *ev
	return &cloudcontrol.GetResourceRequestStatusOutput{ProgressEvent: &cp}, nil
}

func (f *fakeCloudControl) CancelResourceRequest(_ context.Context, in *cloudcontrol.CancelResourceRequestInput, _ ...func(*cloudcontrol.Options)) (*cloudcontrol.CancelResourceRequestOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("CancelResourceRequest")
	if f.pollErr != nil {
		return nil, f.pollErr
	}
	ev, ok := f.requests[*in.RequestToken]
	if !ok {
		return nil, &cctypes.RequestTokenNotFoundException{Message: in.RequestToken}
	}
	ev.OperationStatus = cctypes.OperationStatusCancelComplete
	cp := *ev
	return &cloudcontrol.CancelResourceRequestOutput{ProgressEvent: &cp}, nil
}

// count returns how many times a call was made.
func (f *fakeCloudControl) count(call string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c == call {
			n++
		}
	}
	return n
}
