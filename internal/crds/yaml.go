package crds

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// MarshalYAML renders a generated CRD as the YAML kubectl applies: the
// object without the fields the API server fills (status,
// metadata.creationTimestamp), which the Go type always writes.
func MarshalYAML(crd *apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	data, err := json.Marshal(crd)
	if err != nil {
		return nil, fmt.Errorf("rendering CRD %s: %w", crd.Name, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("rendering CRD %s: %w", crd.Name, err)
	}
	delete(obj, "status")
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	out, err := yaml.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("rendering CRD %s: %w", crd.Name, err)
	}
	return out, nil
}
