package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// The JSON shapes of Cloud Control's API, field names as the AWS SDK's
// serializers write them. Timestamps are epoch seconds as JSON numbers.

type resourceInput struct {
	TypeName      string `json:"TypeName"`
	TypeVersionID string `json:"TypeVersionId,omitempty"`
	RoleArn       string `json:"RoleArn,omitempty"`
	ClientToken   string `json:"ClientToken,omitempty"`
	DesiredState  string `json:"DesiredState,omitempty"`
	Identifier    string `json:"Identifier,omitempty"`
	PatchDocument string `json:"PatchDocument,omitempty"`
	ResourceModel string `json:"ResourceModel,omitempty"`
	NextToken     string `json:"NextToken,omitempty"`
	MaxResults    int    `json:"MaxResults,omitempty"`
}

type requestTokenInput struct {
	RequestToken string `json:"RequestToken"`
}

type listRequestsInput struct {
	MaxResults int    `json:"MaxResults,omitempty"`
	NextToken  string `json:"NextToken,omitempty"`
	Filter     *struct {
		Operations        []string `json:"Operations"`
		OperationStatuses []string `json:"OperationStatuses"`
	} `json:"ResourceRequestStatusFilter,omitempty"`
}

// progressEvent is Cloud Control's ProgressEvent.
type progressEvent struct {
	TypeName        string     `json:"TypeName,omitempty"`
	Identifier      string     `json:"Identifier,omitempty"`
	RequestToken    string     `json:"RequestToken,omitempty"`
	Operation       string     `json:"Operation,omitempty"`
	OperationStatus string     `json:"OperationStatus,omitempty"`
	EventTime       *epochTime `json:"EventTime,omitempty"`
	ResourceModel   string     `json:"ResourceModel,omitempty"`
	StatusMessage   string     `json:"StatusMessage,omitempty"`
	ErrorCode       string     `json:"ErrorCode,omitempty"`
	RetryAfter      *epochTime `json:"RetryAfter,omitempty"`
}

type progressOutput struct {
	ProgressEvent progressEvent `json:"ProgressEvent"`
}

type resourceDescription struct {
	Identifier string `json:"Identifier"`
	Properties string `json:"Properties"`
}

type getResourceOutput struct {
	TypeName            string              `json:"TypeName"`
	ResourceDescription resourceDescription `json:"ResourceDescription"`
}

type listResourcesOutput struct {
	TypeName             string                `json:"TypeName"`
	ResourceDescriptions []resourceDescription `json:"ResourceDescriptions"`
	NextToken            string                `json:"NextToken,omitempty"`
}

type listRequestsOutput struct {
	ResourceRequestStatusSummaries []progressEvent `json:"ResourceRequestStatusSummaries"`
	NextToken                      string          `json:"NextToken,omitempty"`
}

// epochTime marshals as fractional epoch seconds, as AWS JSON protocols
// encode timestamps.
type epochTime time.Time

func (t epochTime) MarshalJSON() ([]byte, error) {
	secs := float64(time.Time(t).UnixMilli()) / 1000
	return strconv.AppendFloat(nil, secs, 'f', -1, 64), nil
}

func epoch(t time.Time) *epochTime {
	if t.IsZero() {
		return nil
	}
	e := epochTime(t)
	return &e
}

// apiError is an error answer: the exception's shape name (the SDK maps
// it to a typed error) and a message. Status is the HTTP status.
type apiError struct {
	Type    string
	Message string
	Status  int
}

func (e *apiError) Error() string { return e.Type + ": " + e.Message }

func newError(typ, message string) *apiError {
	// AWS JSON services answer client errors with 400 whatever the
	// exception; clients decide by the exception name.
	status := http.StatusBadRequest
	switch typ {
	case "ServiceInternalErrorException", "InternalFailure":
		status = http.StatusInternalServerError
	}
	return &apiError{Type: typ, Message: message, Status: status}
}

// writeJSON writes an AWS JSON 1.0 answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"__type":"ServiceInternalErrorException","Message":"encoding answer"}`)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amzn-Requestid", uuid.NewString())
	w.WriteHeader(status)
	w.Write(body)
}

// writeError writes an AWS JSON 1.0 error: the exception name both in
// X-Amzn-ErrorType and in the body's __type, as AWS services do.
func writeError(w http.ResponseWriter, e *apiError) {
	w.Header().Set("X-Amzn-ErrorType", e.Type)
	writeJSON(w, e.Status, map[string]string{"__type": e.Type, "Message": e.Message})
}
