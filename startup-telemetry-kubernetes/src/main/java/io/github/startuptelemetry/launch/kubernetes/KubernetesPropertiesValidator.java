package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.Quantity;

import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import io.github.startuptelemetry.contract.KubernetesLabels;

/**
 * The rules of bound {@link KubernetesProperties}: what Kubernetes would refuse for every pod, or
 * read as something else, fails the supervisor at start with the property named.
 */
final class KubernetesPropertiesValidator implements Validator {

	/** A DNS-1123 label: namespaces, container names. */
	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	/** A label value (and a label key's name part). */
	static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?");

	private static final Pattern LABEL_KEY = Pattern
		.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

	private static final Set<String> PULL_POLICIES = Set.of("Always", "IfNotPresent", "Never");

	@Override
	public boolean supports(Class<?> type) {
		return KubernetesProperties.class.isAssignableFrom(type);
	}

	/** The templates and quantities are checked with the client's own parser. */
	@Override
	public void validate(Object target, Errors errors) {
		KubernetesProperties properties = (KubernetesProperties) target;
		if (properties.getNamespace() != null && !DNS_LABEL.matcher(properties.getNamespace()).matches()) {
			errors.rejectValue("namespace", "name", "must be a namespace name: lower-case letters, digits and '-'");
		}
		if (properties.getContainerName() == null || !DNS_LABEL.matcher(properties.getContainerName()).matches()) {
			errors.rejectValue("containerName", "name",
					"must be a container name: lower-case letters, digits and '-', at most 63");
		}
		if (properties.getSupervisorName() != null && (properties.getSupervisorName().isBlank()
				|| !LABEL_VALUE.matcher(properties.getSupervisorName()).matches())) {
			errors.rejectValue("supervisorName", "label",
					"must be a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit");
		}
		String callbackHost = properties.getCallbackHost();
		if (callbackHost != null && (callbackHost.isBlank() || callbackHost.contains("/") || callbackHost.contains(" "))) {
			errors.rejectValue("callbackHost", "host", "must be a host name or address, without scheme, port or path");
		}
		if (properties.getApiTimeout() == null || properties.getApiTimeout().isNegative()
				|| properties.getApiTimeout().isZero()) {
			errors.rejectValue("apiTimeout", "positive", "must be positive");
		}
		waitLimit(properties.getUnschedulableTimeout(), "unschedulableTimeout", errors);
		waitLimit(properties.getImagePullTimeout(), "imagePullTimeout", errors);
		waitLimit(properties.getContainerConfigTimeout(), "containerConfigTimeout", errors);
		if (properties.getLeaseDuration() == null || properties.getLeaseDuration().toSeconds() < 3) {
			errors.rejectValue("leaseDuration", "range", "must be at least 3s (it is renewed every third of it)");
		}
		if (properties.getActiveDeadline() != null && properties.getActiveDeadline().isNegative()) {
			errors.rejectValue("activeDeadline", "positive", "must be positive, or 0 for none");
		}
		if (properties.getMaxConcurrentRequests() < 1 || properties.getMaxConcurrentRequests() > 1000) {
			errors.rejectValue("maxConcurrentRequests", "range", "must be between 1 and 1000");
		}
		validate(properties, "", errors);
		for (Map.Entry<String, PodSettings> server : properties.getServers().entrySet()) {
			validate(server.getValue(), "servers[" + server.getKey() + "].", errors);
		}
	}

	private static void waitLimit(Duration limit, String field, Errors errors) {
		if (limit != null && (limit.isNegative() || limit.isZero())) {
			errors.rejectValue(field, "positive", "must be positive (leave it unset for ready-timeout alone)");
		}
	}

	private static void validate(PodSettings settings, String path, Errors errors) {
		if (settings.getPodTemplate() != null && settings.getPodTemplateConfigMap() != null) {
			errors.rejectValue(path + "podTemplateConfigMap", "exclusive",
					"and pod-template are both set: give the template one way, inline or in a ConfigMap");
		}
		if (settings.getPodTemplate() != null) {
			try {
				PodTemplates.parse(settings.getPodTemplate());
			}
			catch (IllegalArgumentException ex) {
				errors.rejectValue(path + "podTemplate", "pod", ex.getMessage());
			}
		}
		if (settings.getPodTemplateConfigMap() != null) {
			String[] reference = PodTemplates.configMap(settings.getPodTemplateConfigMap());
			if (!DNS_LABEL.matcher(reference[0]).matches() && !reference[0].matches("[a-z0-9][-a-z0-9.]*")
					|| reference[1].isEmpty()) {
				errors.rejectValue(path + "podTemplateConfigMap", "reference",
						"must be a ConfigMap's name, or name/key");
			}
		}
		if (settings.getImagePullPolicy() != null && !PULL_POLICIES.contains(settings.getImagePullPolicy())) {
			errors.rejectValue(path + "imagePullPolicy", "policy", "must be Always, IfNotPresent or Never");
		}
		quantities(settings.getResources().getRequests(), path + "resources.requests", errors);
		quantities(settings.getResources().getLimits(), path + "resources.limits", errors);
		labels(settings.getLabels(), path + "labels", errors);
		for (String key : settings.getAnnotations().keySet()) {
			if (!LABEL_KEY.matcher(key).matches()) {
				errors.rejectValue(path + "annotations[" + key + "]", "key",
						"is not an annotation key: [prefix/]name, the name at most 63 letters, digits, '-', '_' and '.'");
			}
		}
	}

	private static void quantities(Map<String, String> quantities, String path, Errors errors) {
		for (Map.Entry<String, String> quantity : quantities.entrySet()) {
			try {
				Quantity.getAmountInBytes(Quantity.parse(quantity.getValue()));
			}
			catch (RuntimeException ex) {
				errors.rejectValue(path + "[" + quantity.getKey() + "]", "quantity",
						"is not a Kubernetes quantity (e.g. 500m, 2, 1Gi)");
			}
		}
	}

	private static void labels(Map<String, String> labels, String path, Errors errors) {
		for (Map.Entry<String, String> label : labels.entrySet()) {
			String key = label.getKey();
			if (!LABEL_KEY.matcher(key).matches()) {
				errors.rejectValue(path + "[" + key + "]", "key",
						"is not a label key: [prefix/]name, the name at most 63 letters, digits, '-', '_' and '.'");
			}
			else if (key.startsWith(KubernetesLabels.PREFIX) || key.equals(KubernetesLabels.MANAGED_BY)) {
				errors.rejectValue(path + "[" + key + "]", "reserved",
						"is the launcher's own label: it selects and cleans up its pods by it");
			}
			else if (label.getValue() == null || !LABEL_VALUE.matcher(label.getValue()).matches()) {
				errors.rejectValue(path + "[" + key + "]", "value",
						"must be a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit");
			}
		}
	}

}
