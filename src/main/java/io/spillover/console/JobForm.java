package io.spillover.console;

import io.spillover.catalog.JobKind;
import io.spillover.jobs.JobRequest;
import io.spillover.placement.Requirements;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The submit form as the browser sends it: blank fields mean "not given". It becomes the same
 * {@link JobRequest} the API takes, so the same rules apply and report the same fields.
 */
public class JobForm {

    /** One row of the preference editor. */
    public static class EntryForm {
        private String instanceType;
        private Integer instanceCount;
        private String trainingPlan;
        private String region;

        public String getInstanceType() { return instanceType; }
        public void setInstanceType(String instanceType) { this.instanceType = instanceType; }
        public Integer getInstanceCount() { return instanceCount; }
        public void setInstanceCount(Integer instanceCount) { this.instanceCount = instanceCount; }
        public String getTrainingPlan() { return trainingPlan; }
        public void setTrainingPlan(String trainingPlan) { this.trainingPlan = trainingPlan; }
        public String getRegion() { return region; }
        public void setRegion(String region) { this.region = region; }

        boolean blank() {
            return blankToNull(instanceType) == null && instanceCount == null && blankToNull(trainingPlan) == null;
        }
    }

    private String name;
    private JobKind kind = JobKind.TRAINING;
    private String profile;
    private boolean uniformCount;
    private Integer instanceCount;
    private List<EntryForm> entries = new ArrayList<>(List.of(new EntryForm()));
    private Long maxPendingTimeInSeconds;
    private Long maxRuntimeInSeconds;
    private Long expectedRuntimeSeconds;
    private Integer priority;
    private String command;
    private Long runtimeSeconds;
    private boolean requiresEfa;
    private boolean preemptible;

    /** The request this form stands for; entries left blank are dropped. */
    JobRequest toRequest() {
        boolean fromProfile = blankToNull(profile) != null;
        List<JobRequest.Entry> preferences = fromProfile ? null : entries.stream()
                .filter(e -> !e.blank())
                .map(e -> new JobRequest.Entry(blankToNull(e.instanceType), uniformCount ? null : e.instanceCount,
                        blankToNull(e.trainingPlan), blankToNull(e.region)))
                .toList();
        List<String> words = blankToNull(command) == null ? List.of()
                : Arrays.stream(command.trim().split("\\s+")).toList();
        return new JobRequest(blankToNull(name), kind, blankToNull(profile), preferences,
                fromProfile || !uniformCount ? null : instanceCount, maxPendingTimeInSeconds, maxRuntimeInSeconds,
                expectedRuntimeSeconds, null, priority, null, requiresEfa ? new Requirements(true, null, null, null, null) : null,
                words.isEmpty() ? null : new ContainerSpec(null, words, null),
                runtimeSeconds == null ? null : new LocalSettings(runtimeSeconds, null), null, preemptible ? true : null);
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public JobKind getKind() { return kind; }
    public void setKind(JobKind kind) { this.kind = kind; }
    public String getProfile() { return profile; }
    public void setProfile(String profile) { this.profile = profile; }
    public boolean isUniformCount() { return uniformCount; }
    public void setUniformCount(boolean uniformCount) { this.uniformCount = uniformCount; }
    public Integer getInstanceCount() { return instanceCount; }
    public void setInstanceCount(Integer instanceCount) { this.instanceCount = instanceCount; }
    public List<EntryForm> getEntries() { return entries; }
    public void setEntries(List<EntryForm> entries) { this.entries = entries; }
    public Long getMaxPendingTimeInSeconds() { return maxPendingTimeInSeconds; }
    public void setMaxPendingTimeInSeconds(Long value) { this.maxPendingTimeInSeconds = value; }
    public Long getMaxRuntimeInSeconds() { return maxRuntimeInSeconds; }
    public void setMaxRuntimeInSeconds(Long value) { this.maxRuntimeInSeconds = value; }
    public Long getExpectedRuntimeSeconds() { return expectedRuntimeSeconds; }
    public void setExpectedRuntimeSeconds(Long value) { this.expectedRuntimeSeconds = value; }
    public Integer getPriority() { return priority; }
    public void setPriority(Integer priority) { this.priority = priority; }
    public String getCommand() { return command; }
    public void setCommand(String command) { this.command = command; }
    public Long getRuntimeSeconds() { return runtimeSeconds; }
    public void setRuntimeSeconds(Long runtimeSeconds) { this.runtimeSeconds = runtimeSeconds; }
    public boolean isRequiresEfa() { return requiresEfa; }
    public void setRequiresEfa(boolean requiresEfa) { this.requiresEfa = requiresEfa; }
    public boolean isPreemptible() { return preemptible; }
    public void setPreemptible(boolean preemptible) { this.preemptible = preemptible; }
}
