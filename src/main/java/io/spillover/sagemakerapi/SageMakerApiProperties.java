package io.spillover.sagemakerapi;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param accountId the twelve digits the endpoint's ARNs carry where AWS's carry an account (Spillover has none)
 */
@ConfigurationProperties("spillover.sagemaker-api")
record SageMakerApiProperties(String accountId) {

    SageMakerApiProperties {
        accountId = accountId == null || accountId.isBlank() ? "000000000000" : accountId.trim();
        if (!accountId.matches("\\d{12}")) {
            throw new IllegalArgumentException("spillover.sagemaker-api.account-id must be 12 digits, not " + accountId);
        }
    }
}
