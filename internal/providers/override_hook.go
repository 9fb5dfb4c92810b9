package providers

import "github.com/cairn-iac/cairn/internal/addrs"

// ResourceHook chooses the provider a resource's instances are planned,
// refreshed, read and applied with, given the provider configuration its
// configuration resolves to (pAddr) and that configuration's instance
// (p): "cairn test" serves mocked provider configurations and overridden
// resources from mocks. It returns p to leave the resource alone.
type ResourceHook func(addr addrs.AbsResource, pAddr addrs.AbsProviderConfig, p Interface) Interface

// InstanceRouter is what a provider a ResourceHook returns may also be:
// one that serves some instances of the resource with another provider
// (an override of one instance, target = aws_x.y["k"]). The engine asks
// it once per instance; resources the hook leaves alone pay nothing.
type InstanceRouter interface {
	ForInstance(key addrs.InstanceKey) Interface
}
