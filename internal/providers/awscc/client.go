package awscc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
)

// api is the part of the Cloud Control API the runtime calls.
// *cloudcontrol.Client implements it; its retryer retries throttling and
// transient errors on every call (max_retries).
type api interface {
	CreateResource(context.Context, *cloudcontrol.CreateResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.CreateResourceOutput, error)
	GetResource(context.Context, *cloudcontrol.GetResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceOutput, error)
	UpdateResource(context.Context, *cloudcontrol.UpdateResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.UpdateResourceOutput, error)
	DeleteResource(context.Context, *cloudcontrol.DeleteResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.DeleteResourceOutput, error)
	ListResources(context.Context, *cloudcontrol.ListResourcesInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.ListResourcesOutput, error)
	GetResourceRequestStatus(context.Context, *cloudcontrol.GetResourceRequestStatusInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceRequestStatusOutput, error)
	CancelResourceRequest(context.Context, *cloudcontrol.CancelResourceRequestInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.CancelResourceRequestOutput, error)
}

var _ api = (*cloudcontrol.Client)(nil)

// clientToken returns a new idempotency token for one mutating call. It
// is random rather than a counter so that two provider processes (or two
// runs) never share one: Cloud Control would answer the second with the
// first's request.
func clientToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "cairn-" + hex.EncodeToString(b[:])
}

// requestFailedError is a resource request that ended FAILED.
type requestFailedError struct {
	Operation string
	Code      cctypes.HandlerErrorCode
	Message   string
	Token     string
}

func (e *requestFailedError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "no status message"
	}
	return fmt.Sprintf("%s request %s failed: %s (error code %s)", strings.ToLower(e.Operation), e.Token, msg, e.Code)
}

// errRequestCancelled says a resource request ended CANCEL_COMPLETE.
var errRequestCancelled = errors.New("the resource request was cancelled")

// failure returns the error of a progress event that ended the request
// without success, or nil.
func failure(ev *cctypes.ProgressEvent) error {
	switch ev.OperationStatus {
	case cctypes.OperationStatusFailed:
		return &requestFailedError{Operation: string(ev.Operation), Code: ev.ErrorCode,
			Message: aws.ToString(ev.StatusMessage), Token: aws.ToString(ev.RequestToken)}
	case cctypes.OperationStatusCancelComplete:
		return errRequestCancelled
	}
	return nil
}

// isNotFound reports whether err says the resource does not exist: the
// API's ResourceNotFoundException, or a request that failed NotFound.
func isNotFound(err error) bool {
	var nf *cctypes.ResourceNotFoundException
	if errors.As(err, &nf) {
		return true
	}
	var rf *requestFailedError
	return errors.As(err, &rf) && rf.Code == cctypes.HandlerErrorCodeNotFound
}

// decodeModel decodes a resource model's properties.
func decodeModel(props *string) (map[string]any, error) {
	if props == nil || *props == "" {
		return map[string]any{}, nil
	}
	v, err := decodeJSON([]byte(*props))
	if err != nil {
		return nil, fmt.Errorf("decoding the resource model: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the resource model is %s, not an object", jsonText(v))
	}
	return m, nil
}
