package cloudcontrol

import (
	"context"
	"time"
)

// Handler serves one resource type. Each method runs one step of an
// operation and returns a progress event: SUCCESS or FAILED ends the
// operation; IN_PROGRESS asks the endpoint to call the same method again
// after CallbackDelay with the event's CallbackContext in the request, so a
// long operation never holds a goroutine or a lock while it waits. The
// endpoint persists the callback context between steps, so a restarted
// endpoint resumes the operation where the last step left it: a step must
// be safe to run again after a crash (Create with the same ClientToken must
// not make a second resource).
//
// Methods are called concurrently, for different resources and for the
// same one; a Handler serialises what it must itself (the Store's Insert
// is atomic for that reason).
type Handler interface {
	// Create makes the resource described by req.Desired. Its SUCCESS
	// event carries the whole model, primary identifier included.
	Create(ctx context.Context, req *Request) *ProgressEvent
	// Read returns the current model of req.Identifier, or FAILED with
	// NotFound. It is synchronous: IN_PROGRESS is an error.
	Read(ctx context.Context, req *Request) *ProgressEvent
	// Update makes the resource match req.Desired (the current model with
	// the caller's patch applied); req.Previous is the current model.
	Update(ctx context.Context, req *Request) *ProgressEvent
	// Delete removes req.Identifier; FAILED with CodeNotFound when absent.
	Delete(ctx context.Context, req *Request) *ProgressEvent
	// List returns one page of models (primary identifiers at least) in
	// Models, with NextToken when more follow. It is synchronous.
	List(ctx context.Context, req *Request) *ProgressEvent
}

// Request is one handler invocation.
type Request struct {
	// TypeName is the CloudFormation type name, AWS::S3::Bucket.
	TypeName string
	// ClientToken identifies the operation: the caller's ClientToken, or
	// one the endpoint chose. It is the same on every step of one
	// operation and after a restart.
	ClientToken string
	// Region and Account are the endpoint's (or the caller's) region and
	// account, for ARNs.
	Region, Account string
	// Identifier is the primary identifier (multi-part values joined with
	// "|" in primaryIdentifier order) for Read, Update and Delete.
	Identifier string
	// Desired is the desired model (Create, Update); Previous the current
	// one (Update). JSON objects decoded with json.Decoder.UseNumber.
	Desired, Previous map[string]any
	// CallbackContext is the previous step's, nil on the first step.
	CallbackContext map[string]any
	// NextToken and MaxResults page List.
	NextToken  string
	MaxResults int
	// Step counts the invocations of this operation, from 1.
	Step int
}

// ProgressEvent is a handler's answer to one step.
type ProgressEvent struct {
	Status    Status
	ErrorCode ErrorCode
	// Message is a human-readable status or error message.
	Message string
	// Model is the resource model (Create, Read, Update: the whole model).
	Model map[string]any
	// Models and NextToken answer List.
	Models    []map[string]any
	NextToken string
	// CallbackContext and CallbackDelay go with IN_PROGRESS.
	CallbackContext map[string]any
	CallbackDelay   time.Duration
}

// Status is an operation's status, as Cloud Control's OperationStatus.
type Status string

const (
	StatusPending          Status = "PENDING"
	StatusInProgress       Status = "IN_PROGRESS"
	StatusSuccess          Status = "SUCCESS"
	StatusFailed           Status = "FAILED"
	StatusCancelInProgress Status = "CANCEL_IN_PROGRESS"
	StatusCancelComplete   Status = "CANCEL_COMPLETE"
)

// Terminal reports whether no further progress follows the status.
func (s Status) Terminal() bool {
	return s == StatusSuccess || s == StatusFailed || s == StatusCancelComplete
}

// ErrorCode is Cloud Control's HandlerErrorCode.
type ErrorCode string

const (
	CodeNotUpdatable             ErrorCode = "NotUpdatable"
	CodeInvalidRequest           ErrorCode = "InvalidRequest"
	CodeAccessDenied             ErrorCode = "AccessDenied"
	CodeInvalidCredentials       ErrorCode = "InvalidCredentials"
	CodeAlreadyExists            ErrorCode = "AlreadyExists"
	CodeNotFound                 ErrorCode = "NotFound"
	CodeResourceConflict         ErrorCode = "ResourceConflict"
	CodeThrottling               ErrorCode = "Throttling"
	CodeServiceLimitExceeded     ErrorCode = "ServiceLimitExceeded"
	CodeNotStabilized            ErrorCode = "NotStabilized"
	CodeGeneralServiceException  ErrorCode = "GeneralServiceException"
	CodeServiceInternalError     ErrorCode = "ServiceInternalError"
	CodeServiceTimeout           ErrorCode = "ServiceTimeout"
	CodeNetworkFailure           ErrorCode = "NetworkFailure"
	CodeInternalFailure          ErrorCode = "InternalFailure"
	CodeInvalidTypeConfiguration ErrorCode = "InvalidTypeConfiguration"
	CodeHandlerInternalFailure   ErrorCode = "HandlerInternalFailure"
	CodeNonCompliant             ErrorCode = "NonCompliant"
	CodeUnknown                  ErrorCode = "Unknown"
	CodeUnsupportedTarget        ErrorCode = "UnsupportedTarget"
)

// Success returns a SUCCESS event with model.
func Success(model map[string]any) *ProgressEvent {
	return &ProgressEvent{Status: StatusSuccess, Model: model}
}

// Failed returns a FAILED event.
func Failed(code ErrorCode, message string) *ProgressEvent {
	return &ProgressEvent{Status: StatusFailed, ErrorCode: code, Message: message}
}

// InProgress returns an IN_PROGRESS event asking to be called again after
// delay with callback.
func InProgress(delay time.Duration, callback map[string]any) *ProgressEvent {
	return &ProgressEvent{Status: StatusInProgress, CallbackDelay: delay, CallbackContext: callback}
}
