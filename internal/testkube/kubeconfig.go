package testkube

import (
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// writeKubeconfig writes a kubeconfig with one context, "testkube", that
// reaches the cluster as cfg does.
func writeKubeconfig(path string, cfg *rest.Config) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["testkube"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.CAData,
	}
	kc.AuthInfos["testkube"] = &clientcmdapi.AuthInfo{Token: cfg.BearerToken}
	kc.Contexts["testkube"] = &clientcmdapi.Context{Cluster: "testkube", AuthInfo: "testkube", Namespace: "default"}
	kc.CurrentContext = "testkube"
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	return nil
}
