package io.spillover.jobs;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import tools.jackson.databind.json.JsonMapper;

@Converter
class JobSpecConverter implements AttributeConverter<JobSpec, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(JobSpec spec) {
        return JSON.writeValueAsString(spec);
    }

    @Override
    public JobSpec convertToEntityAttribute(String json) {
        return json == null ? null : JSON.readValue(json, JobSpec.class);
    }
}
