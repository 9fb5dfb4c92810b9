package ccendpoint

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/google/uuid"
)

// registryAPI answers the CloudFormation registry calls "cairn cfn fetch"
// makes — ListTypes and DescribeType, AWS query protocol — from the
// endpoint's schemas, and hands every other request to next. The endpoint
// is then a registry as well as a Cloud Control API, so fetching works
// (and is tested) with no AWS account.
type registryAPI struct {
	next   http.Handler
	source *schemaSource

	mu          sync.Mutex
	provisioned map[string]string // type name → provisioning type
}

const cfnNamespace = "http://cloudformation.amazonaws.com/doc/2010-05-15/"

// maxQueryBody bounds a registry request body; real ones are tiny.
const maxQueryBody = 1 << 20

func (r *registryAPI) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.Header.Get("X-Amz-Target") != "" {
		r.next.ServeHTTP(w, req)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxQueryBody))
	if err != nil {
		http.Error(w, "reading request body", http.StatusBadRequest)
		return
	}
	form, _ := url.ParseQuery(string(body))
	switch form.Get("Action") {
	case "ListTypes":
		r.listTypes(w, form)
	case "DescribeType":
		r.describeType(w, form)
	default:
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.next.ServeHTTP(w, req)
	}
}

type typeSummary struct {
	Type     string `xml:"Type"`
	TypeName string `xml:"TypeName"`
}

type listTypesResponse struct {
	XMLName   xml.Name      `xml:"ListTypesResponse"`
	Xmlns     string        `xml:"xmlns,attr"`
	Summaries []typeSummary `xml:"ListTypesResult>TypeSummaries>member"`
	NextToken string        `xml:"ListTypesResult>NextToken,omitempty"`
	RequestID string        `xml:"ResponseMetadata>RequestId"`
}

// listTypes pages through the public resource types, filtered by
// ProvisioningType and Filters.TypeNamePrefix as the registry filters.
func (r *registryAPI) listTypes(w http.ResponseWriter, form url.Values) {
	if t := form.Get("Type"); t != "" && t != "RESOURCE" {
		writeXML(w, http.StatusOK, listTypesResponse{Xmlns: cfnNamespace, RequestID: uuid.NewString()})
		return
	}
	names, err := r.source.typeNames()
	if err != nil {
		writeQueryError(w, http.StatusInternalServerError, "Receiver", "InternalFailure", err.Error())
		return
	}
	start, _ := strconv.Atoi(form.Get("NextToken"))
	limit, _ := strconv.Atoi(form.Get("MaxResults"))
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	want, prefix := form.Get("ProvisioningType"), form.Get("Filters.TypeNamePrefix")
	out := listTypesResponse{Xmlns: cfnNamespace, RequestID: uuid.NewString()}
	i := max(start, 0)
	for ; i < len(names) && len(out.Summaries) < limit; i++ {
		if !matches(names[i], prefix) || (want != "" && r.provisioning(names[i]) != want) {
			continue
		}
		out.Summaries = append(out.Summaries, typeSummary{Type: "RESOURCE", TypeName: names[i]})
	}
	if i < len(names) {
		out.NextToken = strconv.Itoa(i)
	}
	writeXML(w, http.StatusOK, out)
}

// provisioning derives a type's provisioning type from its handlers:
// create and update FULLY_MUTABLE, create alone IMMUTABLE, else
// NON_PROVISIONABLE.
func (r *registryAPI) provisioning(name string) string {
	r.mu.Lock()
	p, ok := r.provisioned[name]
	r.mu.Unlock()
	if ok {
		return p
	}
	p = "NON_PROVISIONABLE"
	if doc, err := r.source.schema(name); err == nil {
		var head struct {
			Handlers map[string]json.RawMessage `json:"handlers"`
		}
		if json.Unmarshal(doc, &head) == nil {
			_, create := head.Handlers["create"]
			_, update := head.Handlers["update"]
			switch {
			case create && update:
				p = "FULLY_MUTABLE"
			case create:
				p = "IMMUTABLE"
			}
		}
	}
	r.mu.Lock()
	r.provisioned[name] = p
	r.mu.Unlock()
	return p
}

type describeTypeResponse struct {
	XMLName          xml.Name `xml:"DescribeTypeResponse"`
	Xmlns            string   `xml:"xmlns,attr"`
	Type             string   `xml:"DescribeTypeResult>Type"`
	TypeName         string   `xml:"DescribeTypeResult>TypeName"`
	Schema           string   `xml:"DescribeTypeResult>Schema"`
	ProvisioningType string   `xml:"DescribeTypeResult>ProvisioningType"`
	Visibility       string   `xml:"DescribeTypeResult>Visibility"`
	DeprecatedStatus string   `xml:"DescribeTypeResult>DeprecatedStatus"`
	RequestID        string   `xml:"ResponseMetadata>RequestId"`
}

func (r *registryAPI) describeType(w http.ResponseWriter, form url.Values) {
	name := form.Get("TypeName")
	doc, err := r.source.schema(name)
	if err != nil {
		writeQueryError(w, http.StatusNotFound, "Sender", "TypeNotFoundException", "The type '"+name+"' cannot be found.")
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		writeQueryError(w, http.StatusInternalServerError, "Receiver", "InternalFailure", "schema of "+name+" is not JSON")
		return
	}
	writeXML(w, http.StatusOK, describeTypeResponse{Xmlns: cfnNamespace, Type: "RESOURCE", TypeName: name,
		Schema: compact.String(), ProvisioningType: r.provisioning(name), Visibility: "PUBLIC",
		DeprecatedStatus: "LIVE", RequestID: uuid.NewString()})
}

type queryError struct {
	XMLName   xml.Name `xml:"ErrorResponse"`
	Xmlns     string   `xml:"xmlns,attr"`
	Type      string   `xml:"Error>Type"`
	Code      string   `xml:"Error>Code"`
	Message   string   `xml:"Error>Message"`
	RequestID string   `xml:"RequestId"`
}

func writeQueryError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeXML(w, status, queryError{Xmlns: cfnNamespace, Type: typ, Code: code, Message: msg, RequestID: uuid.NewString()})
}

func writeXML(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	if err := xml.NewEncoder(&buf).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
